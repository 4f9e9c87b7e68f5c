/**
 * What forms need from the Slack stand-in, held to Slack's rules (Block Kit reference: "Input block", "Select menu
 * element", "Option group object", "Number input element", "Dispatch action configuration object"; the
 * block_actions and shortcuts payload references; "Preserving input entry" of the modal views reference): static
 * menus with option groups, number inputs, inputs that dispatch `block_actions` from inside a view (with the view's
 * id, hash and state), `views.update` with that hash, and global shortcuts the manifest declares.
 */
import { App, type BlockAction, LogLevel, type SlackShortcut, type ViewSubmitAction } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MODAL_LIMITS, validateModalView } from '../support/rig/block-kit-validation.js';
import {
  createSlackDriver,
  type RunningApp,
  type SlackDriver,
  type SlackStandIn,
  startAppOnFreePort,
  startSlackStandIn,
} from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const plain = (text: string) => ({ type: 'plain_text' as const, text });
const option = (text: string, value: string) => ({ text: plain(text), value });
const x = (n: number) => 'x'.repeat(n);

const assetMenu = (extra: Record<string, unknown> = {}) => ({
  type: 'input',
  block_id: 'asset',
  dispatch_action: true,
  label: plain('Asset'),
  element: {
    type: 'static_select',
    action_id: 'asset',
    placeholder: plain('Choose an asset'),
    option_groups: [
      { label: plain('ETH'), options: [option('USDT on Ethereum · 12,400.50 available', 'USDT@ETH')] },
      { label: plain('BSC'), options: [option('USDT on BSC · 80.00 available', 'USDT@BSC')] },
    ],
    ...extra,
  },
});
const amountInput = (element: Record<string, unknown> = {}, block: Record<string, unknown> = {}) => ({
  type: 'input',
  block_id: 'amount',
  dispatch_action: true,
  label: plain('Amount'),
  element: {
    type: 'plain_text_input',
    action_id: 'amount',
    dispatch_action_config: { trigger_actions_on: ['on_character_entered'] },
    ...element,
  },
  ...block,
});
const numberInput = (element: Record<string, unknown> = {}) => ({
  type: 'input',
  block_id: 'count',
  label: plain('How many'),
  element: { type: 'number_input', action_id: 'count', is_decimal_allowed: false, ...element },
});
const formView = (blocks: unknown[] = [assetMenu(), amountInput()]) => ({
  type: 'modal' as const,
  callback_id: 'test_form',
  title: plain('New invoice'),
  submit: plain('Create'),
  close: plain('Cancel'),
  blocks,
});

describe('validateModalView: option groups, number inputs, dispatching inputs', () => {
  const problemsOf = (blocks: unknown[]) => validateModalView(formView(blocks));

  it('accepts the form: a menu grouped by network, an amount input that dispatches on each character, a number input', () => {
    expect(problemsOf([assetMenu(), amountInput(), numberInput({ min_value: '1', max_value: '10' })])).toEqual([]);
  });

  it.each([
    [
      'options and option_groups together',
      [assetMenu({ options: [option('a', 'a')] })],
      '/view/blocks/0/element',
      'must provide either options or option_groups, not both',
    ],
    [
      'a group label of 76 characters',
      [assetMenu({ option_groups: [{ label: plain(x(76)), options: [option('a', 'a')] }] })],
      '/view/blocks/0/element/option_groups/0/label/text',
      'must be less than 76 characters',
    ],
    [
      'a mrkdwn group label',
      [assetMenu({ option_groups: [{ label: { type: 'mrkdwn', text: 'ETH' }, options: [option('a', 'a')] }] })],
      '/view/blocks/0/element/option_groups/0/label/type',
      'unsupported type: mrkdwn',
    ],
    [
      '101 options across two groups',
      [
        assetMenu({
          option_groups: [
            { label: plain('A'), options: Array.from({ length: 60 }, (_, i) => option(`a${i}`, `a${i}`)) },
            { label: plain('B'), options: Array.from({ length: 41 }, (_, i) => option(`b${i}`, `b${i}`)) },
          ],
        }),
      ],
      '/view/blocks/0/element/option_groups',
      `no more than ${MODAL_LIMITS.selectOptions} options allowed across all option groups`,
    ],
    [
      'a group without options',
      [assetMenu({ option_groups: [{ label: plain('A'), options: [] }] })],
      '/view/blocks/0/element/option_groups/0/options',
      'must provide at least 1 item',
    ],
    [
      'an option text of 76 inside a group',
      [assetMenu({ option_groups: [{ label: plain('A'), options: [option(x(76), 'a')] }] })],
      '/view/blocks/0/element/option_groups/0/options/0/text/text',
      'must be less than 76 characters',
    ],
    [
      'an initial_option the menu does not list',
      [assetMenu({ initial_option: option('USDC', 'USDC@ETH') })],
      '/view/blocks/0/element/initial_option',
      'must match one of the options',
    ],
    [
      'the same value twice',
      [
        assetMenu({
          option_groups: [
            { label: plain('A'), options: [option('a', 'v')] },
            { label: plain('B'), options: [option('b', 'v')] },
          ],
        }),
      ],
      '/view/blocks/0/element/option_groups/1/options/0/value',
      'duplicate option value: v',
    ],
    [
      'a number input without is_decimal_allowed',
      [numberInput({ is_decimal_allowed: undefined })],
      '/view/blocks/0/element',
      'missing required field: is_decimal_allowed',
    ],
    [
      'a number given as a JSON number',
      [numberInput({ min_value: 1 })],
      '/view/blocks/0/element/min_value',
      'must be a string',
    ],
    [
      'a decimal where only whole numbers are allowed',
      [numberInput({ initial_value: '1.5' })],
      '/view/blocks/0/element/initial_value',
      'must be a whole number',
    ],
    [
      'min above max',
      [numberInput({ min_value: '10', max_value: '1' })],
      '/view/blocks/0/element/min_value',
      'must not be greater than max_value',
    ],
    [
      'an initial value outside min and max',
      [numberInput({ is_decimal_allowed: true, min_value: '0.5', max_value: '2', initial_value: '2.5' })],
      '/view/blocks/0/element/initial_value',
      'must be between min_value and max_value',
    ],
    [
      'dispatch_action that is not a boolean',
      [amountInput({}, { dispatch_action: 'yes' })],
      '/view/blocks/0/dispatch_action',
      'must be a boolean',
    ],
    [
      'a trigger Slack does not know',
      [amountInput({ dispatch_action_config: { trigger_actions_on: ['on_blur'] } })],
      '/view/blocks/0/element/dispatch_action_config/trigger_actions_on/0',
      'must be one of: on_enter_pressed, on_character_entered',
    ],
    [
      'no trigger at all',
      [amountInput({ dispatch_action_config: { trigger_actions_on: [] } })],
      '/view/blocks/0/element/dispatch_action_config/trigger_actions_on',
      'must provide at least 1 item',
    ],
    [
      'dispatch_action_config on a menu',
      [assetMenu({ dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] } })],
      '/view/blocks/0/element/dispatch_action_config',
      'not allowed on static_select',
    ],
  ])('refuses %s', (_name, blocks, pointer, message) => {
    const clean = JSON.parse(JSON.stringify(blocks)) as unknown[];
    expect(problemsOf(clean)).toContainEqual({ pointer, message });
  });
});

describe('forms through the driver and a Bolt app', () => {
  const signingSecret = 'stand-in-forms-secret';
  const botToken = 'xoxb-stand-in-forms';
  let standIn: SlackStandIn;
  let app: App;
  let running: RunningApp;
  let driver: SlackDriver;
  const actions: BlockAction[] = [];
  const shortcuts: SlackShortcut[] = [];
  const updates: Array<{ ok: boolean; error?: string }> = [];
  const submissions: ViewSubmitAction[] = [];

  beforeAll(async () => {
    standIn = await startSlackStandIn({ botToken, botUserId: 'U_BOT', botId: 'B_BOT' });
    app = new App({
      signingSecret,
      token: botToken,
      botId: 'B_BOT',
      botUserId: 'U_BOT',
      logLevel: LogLevel.ERROR,
      clientOptions: { slackApiUrl: standIn.apiUrl, retryConfig: { retries: 0 }, logger: silentWebApiLogger },
    });
    app.shortcut('new_invoice', async ({ ack, shortcut, client }) => {
      await ack();
      shortcuts.push(shortcut);
      await client.views.open({ trigger_id: shortcut.trigger_id, view: formView() as never });
    });
    app.action<BlockAction>(/^(asset|amount|count)$/, async ({ ack, body, client }) => {
      await ack();
      actions.push(body);
      const view = body.view!;
      try {
        await client.views.update({ view_id: view.id, hash: view.hash, view: formView() as never });
        updates.push({ ok: true });
      } catch (error) {
        updates.push({ ok: false, error: (error as { data?: { error?: string } }).data?.error ?? String(error) });
      }
    });
    app.view('test_form', async ({ ack, body }) => {
      submissions.push(body as ViewSubmitAction);
      await ack();
    });
    running = await startAppOnFreePort(app);
    driver = createSlackDriver({ eventsUrl: running.eventsUrl, signingSecret, standIn });
  });
  afterAll(async () => {
    await running?.stop();
    await standIn?.close();
  });
  beforeEach(() => {
    standIn.reset();
    actions.length = 0;
    shortcuts.length = 0;
    updates.length = 0;
    submissions.length = 0;
  });

  const openForm = async () => {
    await driver.shortcut('new_invoice');
    return (await standIn.waitFor(() => standIn.views()[0]))!;
  };

  it('a global shortcut the manifest declares arrives as `shortcut` with its callback_id and a trigger that opens a modal', async () => {
    const opened = await openForm();
    expect(shortcuts[0]).toMatchObject({ type: 'shortcut', callback_id: 'new_invoice', user: { id: 'U_ALICE' } });
    expect(shortcuts[0]).not.toHaveProperty('channel');
    expect(shortcuts[0]).not.toHaveProperty('response_url');
    expect(opened.view.callback_id).toBe('test_form');
  });

  it('a shortcut the manifest does not declare cannot be sent', async () => {
    await expect(driver.shortcut('delete_everything')).rejects.toThrow(/declares no global shortcut/);
  });

  it('choosing in a dispatching menu sends block_actions from the view, with its id, hash and state; the hash updates it', async () => {
    const opened = await openForm();
    const result = await driver.useInView(opened, 'asset', 'asset', { values: { asset: { asset: 'USDT@BSC' } } });
    expect(result.status).toBe(200);
    await standIn.waitFor(() => updates.length === 1);
    const body = actions[0]!;
    expect(body.container).toEqual({ type: 'view', view_id: opened.id });
    expect(body.view).toMatchObject({ id: opened.id, hash: opened.hash, callback_id: 'test_form' });
    expect(body.view?.state.values.asset?.asset).toMatchObject({
      type: 'static_select',
      selected_option: { value: 'USDT@BSC', text: { text: 'USDT on BSC · 80.00 available' } },
    });
    expect(body.view?.state.values.amount?.amount).toEqual({ type: 'plain_text_input', value: null });
    expect(body.actions[0]).toMatchObject({ type: 'static_select', action_id: 'asset', block_id: 'asset' });
    expect(body).not.toHaveProperty('response_url');
    expect(updates).toEqual([{ ok: true }]);
  });

  it('a second update with the old hash is refused with hash_conflict (a newer update won)', async () => {
    const opened = await openForm();
    await driver.useInView(opened, 'amount', 'amount', {
      values: { amount: { amount: '1' } },
      trigger: 'on_character_entered',
    });
    await standIn.waitFor(() => updates.length === 1);
    // The same old view (and hash) again, as two keystrokes racing.
    await driver.useInView(opened, 'amount', 'amount', {
      values: { amount: { amount: '12' } },
      trigger: 'on_character_entered',
    });
    await standIn.waitFor(() => updates.length === 2);
    expect(updates).toEqual([{ ok: true }, { ok: false, error: 'hash_conflict' }]);
  });

  it('typing dispatches only on the triggers the input lists; an input block without dispatch_action sends nothing', async () => {
    const opened = await openForm();
    await expect(
      driver.useInView(opened, 'amount', 'amount', {
        values: { amount: { amount: '5' } },
        trigger: 'on_enter_pressed',
      }),
    ).rejects.toThrow(/dispatches on on_character_entered, not on on_enter_pressed/);
    const quiet = { ...opened, view: formView([{ ...amountInput(), dispatch_action: false }]) };
    await expect(
      driver.useInView(quiet, 'amount', 'amount', {
        values: { amount: { amount: '5' } },
        trigger: 'on_character_entered',
      }),
    ).rejects.toThrow(/does not dispatch actions/);
    expect(actions).toHaveLength(0);
  });

  it('a number input holds only numbers its rules take, in block_actions and on submit', async () => {
    const opened = await openForm();
    const withNumber = {
      ...opened,
      view: formView([{ ...numberInput({ min_value: '1', max_value: '10' }), dispatch_action: true }]),
    };
    for (const typed of ['abc', '2.5', '11']) {
      await expect(
        driver.useInView(withNumber, 'count', 'count', { values: { count: { count: typed } } }),
      ).rejects.toThrow(/cannot hold/);
      await expect(driver.submitView(withNumber, { values: { count: { count: typed } } })).rejects.toThrow(
        /cannot hold/,
      );
    }
    await driver.useInView(withNumber, 'count', 'count', { values: { count: { count: '7' } } });
    await standIn.waitFor(() => actions.length === 1);
    expect(actions[0]!.actions[0]).toMatchObject({ type: 'number_input', value: '7' });
  });

  it('views.update refuses a menu that breaks the option group rules', async () => {
    const opened = await openForm();
    const broken = formView([assetMenu({ option_groups: [{ label: plain(x(76)), options: [option('a', 'a')] }] })]);
    await expect(
      app.client.views.update({ view_id: opened.id, hash: opened.hash, view: broken as never }),
    ).rejects.toMatchObject({ data: { error: 'invalid_arguments' } });
  });

  it('a submission carries the menu choice from a group', async () => {
    const opened = await openForm();
    expect(
      await driver.submitView(opened, { values: { asset: { asset: 'USDT@ETH' }, amount: { amount: '10' } } }),
    ).toBeNull();
    expect(submissions[0]?.view.state.values.asset?.asset?.selected_option?.value).toBe('USDT@ETH');
    await expect(driver.submitView(opened, { values: { asset: { asset: 'DOGE@ETH' } } })).rejects.toThrow(
      /has no option/,
    );
  });
});
