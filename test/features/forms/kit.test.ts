/**
 * The forms' kit, pure: the asset menu (the merchant's assets grouped by network, symbol and balance, within Slack's
 * 100 options and 75-character labels), the amount input that sends each keystroke, the preview, and the exact
 * amount readings (the typed commands' own parser: base units, never a float). Every view is held to the Slack
 * stand-in's modal rules.
 */
import { describe, expect, it } from 'vitest';
import {
  amountInputBlock,
  assetMenuBlock,
  assetOptionGroups,
  choiceMenuBlock,
  chosenValue,
  formModal,
  type MenuAsset,
  previewBlocks,
  readTokenAmount,
  readUsdAmount,
  textInputBlock,
  typedText,
} from '../../../src/features/forms/index.js';
import { validateModalView } from '../../support/rig/block-kit-validation.js';

const asset = (
  symbol: string,
  network: string,
  balance: string,
  decimals = 6,
  id = `${symbol}-${network}`,
): MenuAsset =>
  ({
    id,
    balance,
    crypto: { id: `c-${symbol}`, title: symbol, symbol, contractAddress: null, decimals, logoURI: null },
    network: { id: `n-${network}`, title: network === 'ETH' ? 'Ethereum' : network, symbol: network },
  }) as MenuAsset;

const ASSETS = [
  asset('USDT', 'ETH', '12400500000'),
  asset('ETH', 'ETH', '1500000000000000000', 18),
  asset('USDT', 'BSC', '80000000'),
];

const form = (blocks: ReturnType<typeof previewBlocks>) =>
  formModal({ callbackId: 'form_test', title: 'New invoice', submit: 'Create invoice', privateMetadata: '{}', blocks });

describe('the asset menu', () => {
  it('groups the assets by network, each as "symbol on network · balance available", the asset id as the value', () => {
    const { groups, left } = assetOptionGroups(ASSETS);
    expect(left).toBe(0);
    expect(groups.map((g) => g.label.text)).toEqual(['Ethereum (ETH)', 'BSC (BSC)']);
    // Each option names its network: once picked, USDT on Ethereum and USDT on BSC do not read alike.
    expect(groups[0]!.options.map((o) => [o.text.text, o.value])).toEqual([
      ['ETH on Ethereum · 1.5 available', 'ETH-ETH'],
      ['USDT on Ethereum · 12,400.5 available', 'USDT-ETH'],
    ]);
    expect(groups[1]!.options).toEqual([
      { text: { type: 'plain_text', text: 'USDT on BSC · 80 available', emoji: true }, value: 'USDT-BSC' },
    ]);
  });

  it('keeps an option within 75 characters by clipping the asset and network, never the amount', () => {
    const long = {
      ...asset('WRAPPEDTOKEN', 'L2', '123456789012345678901234', 6),
      network: { id: 'n-l2', title: 'A Very Long Layer Two Network Name That Goes On', symbol: 'L2' },
    } as MenuAsset;
    const [group] = assetOptionGroups([long]).groups;
    const text = group!.options[0]!.text.text;
    expect(text).toHaveLength(75);
    expect(text).toBe('WRAPPEDTOKEN on A Very Long Lay… · 123,456,789,012,345,678.901234 available');
    expect(text.endsWith(' · 123,456,789,012,345,678.901234 available')).toBe(true);
    // Exactly 75 with the whole name: nothing is clipped.
    const fits = asset('USDT', 'ETH', '1', 0);
    const name = `USDT on ${'E'.repeat(75 - ' on '.length - 'USDT'.length - ' · 1 available'.length)}`;
    const exact = { ...fits, network: { ...fits.network, title: name.slice('USDT on '.length) } } as MenuAsset;
    expect(assetOptionGroups([exact]).groups[0]!.options[0]!.text.text).toBe(`${name} · 1 available`);
    expect(`${name} · 1 available`).toHaveLength(75);
  });

  it('offers at most 100 options over all groups, says how many were left out, and clips long labels to 75', () => {
    const many = Array.from({ length: 130 }, (_, i) =>
      asset(`T${i}`, i % 2 ? 'N'.repeat(90) : 'ETH', '1', 0, `id-${i}`),
    );
    const { groups, left } = assetOptionGroups(many);
    expect(groups.flatMap((g) => g.options)).toHaveLength(100);
    expect(left).toBe(30);
    const block = assetMenuBlock({ id: 'form_test_asset', label: 'Asset', assets: many });
    expect(JSON.stringify(block)).toContain('30 more assets are not in this menu');
    expect(validateModalView(form([block]))).toEqual([]);
  });

  it('dispatches each choice, keeps the chosen asset while it is offered, and passes Slack’s rules', () => {
    const block = assetMenuBlock({ id: 'form_test_asset', label: 'Asset', assets: ASSETS, chosen: 'USDT-BSC' });
    expect(block).toMatchObject({
      type: 'input',
      block_id: 'form_test_asset',
      dispatch_action: true,
      element: { type: 'static_select', action_id: 'form_test_asset', initial_option: { value: 'USDT-BSC' } },
    });
    const gone = assetMenuBlock({ id: 'form_test_asset', label: 'Asset', assets: ASSETS, chosen: 'gone' });
    expect(JSON.stringify(gone)).not.toContain('initial_option');
    expect(validateModalView(form([block]))).toEqual([]);
  });

  it('says the assets are being read, or why there are none, instead of a menu Slack would refuse', () => {
    for (const assets of [{ loading: true } as const, { failed: 'The payment service did not answer.' }, []]) {
      const block = assetMenuBlock({ id: 'form_test_asset', label: 'Asset', assets });
      expect(block.type).toBe('section');
      expect(validateModalView(form([block]))).toEqual([]);
    }
  });
});

describe('the other inputs and the preview', () => {
  it('the amount sends every character; text inputs and menus of fixed choices pass Slack’s rules', () => {
    const amount = amountInputBlock({ id: 'form_test_amount', label: 'Amount', hint: 'e.g. 12,400.50' });
    expect(amount).toMatchObject({
      dispatch_action: true,
      element: { type: 'plain_text_input', dispatch_action_config: { trigger_actions_on: ['on_character_entered'] } },
    });
    const blocks = [
      choiceMenuBlock({
        id: 'form_test_pricing',
        label: 'Priced in',
        choices: [
          ['asset', 'The asset'],
          ['usd', 'US dollars'],
        ],
        chosen: 'usd',
      }),
      amount,
      textInputBlock({ id: 'form_test_title', label: 'Title', optional: true, maxLength: 200 }),
      ...previewBlocks({ lines: ['Creates an invoice for *12.5 USDT*', 'Base units: `12500000`'] }),
    ];
    expect(validateModalView(form(blocks))).toEqual([]);
    expect(JSON.stringify(blocks[0])).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"US dollars","emoji":true},"value":"usd"}',
    );
  });

  it('the preview says what the bot will do, or what is still missing', () => {
    expect(previewBlocks({ missing: 'Choose an asset and type an amount.' })[1]).toMatchObject({
      block_id: 'form_preview',
      text: { text: '*What the bot will do*\n_Choose an asset and type an amount._' },
    });
    expect(previewBlocks({ lines: ['a', 'b'] })[1]).toMatchObject({
      text: { text: '*What the bot will do*\n• a\n• b' },
    });
  });
});

describe('reading what was entered', () => {
  const values = {
    form_test_asset: { form_test_asset: { type: 'static_select', selected_option: { value: 'USDT-ETH', text: {} } } },
    form_test_amount: { form_test_amount: { type: 'plain_text_input', value: ' 12.5 ' } },
    form_test_title: { form_test_title: { type: 'plain_text_input', value: null } },
  };

  it('reads a menu’s choice and trimmed text, empty when nothing was entered', () => {
    expect(chosenValue(values, 'form_test_asset')).toBe('USDT-ETH');
    expect(chosenValue(values, 'form_test_amount')).toBeUndefined();
    expect(typedText(values, 'form_test_amount')).toBe('12.5');
    expect(typedText(values, 'form_test_title')).toBe('');
    expect(typedText(values, 'missing')).toBe('');
  });

  it.each([
    ['12.5', { units: 12_500_000n }],
    ['12,400.50', { units: 12_400_500_000n }],
    ['12.5 USDT', { units: 12_500_000n }],
    ['', { empty: true }],
    ['1.1234567', { refused: expect.stringMatching(/decimal/) }],
    ['0', { refused: 'Amount must be greater than zero.' }],
    ['abc', { refused: expect.stringMatching(/is not a number/) }],
    ['-5', { refused: 'Amount cannot be negative.' }],
    ['1e6', { refused: expect.stringMatching(/Exponent/) }],
  ])('a USDT (6 decimals) amount %j', (text, reading) => {
    expect(readTokenAmount(text, { decimals: 6, symbol: 'USDT' })).toEqual(reading);
  });

  it('reads 18-decimal amounts exactly, far beyond a float', () => {
    expect(readTokenAmount('123456789.123456789012345678', { decimals: 18, symbol: 'ETH' })).toEqual({
      units: 123_456_789_123_456_789_012_345_678n,
    });
  });

  it.each([
    ['49.99', { units: 4_999n }],
    ['$1,000', { units: 100_000n }],
    ['49.999', { refused: expect.stringMatching(/at most 2 decimal places/) }],
    ['$0', { refused: 'Amount must be greater than zero.' }],
  ])('a USD amount %j', (text, reading) => {
    expect(readUsdAmount(text)).toEqual(reading);
  });
});
