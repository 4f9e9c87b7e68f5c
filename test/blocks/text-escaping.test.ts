/**
 * Every view that shows text it did not write (what a person typed, what the payment API sends), fed `R&D <beta>`
 * in every such field: mrkdwn carries it escaped exactly once (no `&amp;lt;`, no raw `<` or `&`), plain_text
 * (headers, buttons, dialog titles) carries it literally (no entity at all). The notification `text` is mrkdwn.
 */
import { describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/blocks/common.js';
import * as errors from '../../src/blocks/errors.js';
import type { AlertStatusView } from '../../src/features/alerts/blocks.js';
import * as alerts from '../../src/features/alerts/blocks.js';
import type { FailureFacts } from '../../src/features/alerts/kinds/index.js';
import * as invoices from '../../src/features/invoices/blocks.js';
import * as assets from '../../src/features/lookups/balance-blocks.js';
import * as deposits from '../../src/features/lookups/deposit-blocks.js';
import * as gas from '../../src/features/lookups/gas-blocks.js';
import * as withdrawals from '../../src/features/lookups/withdrawal-blocks.js';
import * as payouts from '../../src/features/payouts/blocks.js';
import * as swaps from '../../src/features/swaps/blocks.js';
import type { AssetSnapshot, SwapQuote } from '../../src/features/swaps/quote.js';
import { UsageError } from '../../src/kernel/usage-error.js';
import {
  type Asset,
  type Deposit,
  type Fee,
  type GasDistribution,
  type Invoice,
  PaymentsValidationError,
  type PayoutTask,
  type Swap,
  type Withdrawal,
} from '../../src/payments/index.js';

const T = 'R&D <beta>';
const NOW = new Date('2026-11-22T12:00:00Z');
const ISO = NOW.toISOString();
const crypto = { id: 'c1', title: T, symbol: `US${T}`, contractAddress: '0xabc', decimals: 6, logoURI: null };
const network = { id: 'n1', title: `Net ${T}`, symbol: `N${T}`, chainId: '1', networkType: 'evm' };
const leg = {
  amount: '1500000',
  amountFormatted: '1.5',
  currency: `C${T}`,
  cryptoId: 'c1',
  networkId: 'n1',
  amountInUsd: '1.50',
  isChargedToMerchant: true,
};
const fee: Fee = { network: [leg], service: leg, exchange: null, totalInUsd: '3.00' };

const asset: Asset = {
  id: 'a1',
  wallet: `0x${T}`,
  feePercent: '0.5',
  feeUsd: '0.10',
  balance: '1000000',
  balanceInUsd: '1.00',
  balanceForWithdrawal: '1000000',
  balanceUnits: 'base_units',
  crypto,
  network,
  createdAt: NOW,
};
const withdrawal: Withdrawal = {
  id: `w-${T}`,
  status: `failed ${T}`,
  address: `0x${T}`,
  amount: '1000000',
  amountInUsd: '1.00',
  payer: T,
  isPrivate: false,
  asset: { id: 'a1', balance: '0', balanceInUsd: '0', wallet: null },
  crypto,
  network,
  fee,
  txHash: `0x${T}`,
  createdAt: NOW,
};
const task: PayoutTask = {
  id: `t-${T}`,
  type: T,
  status: `failed ${T}`,
  subStatus: T,
  payoutId: `p-${T}`,
  amount: '1000000',
  amountInUsd: '1.00',
  assetId: 'a1',
  crypto,
  network,
  transferTxHash: `0x${T}`,
  payoutTxHash: null,
  targetsCount: 3,
  fee,
  createdAt: NOW,
};
const gasRow: GasDistribution = {
  id: `g-${T}`,
  status: 'failed',
  subStatus: T,
  network: { id: 'n1', title: network.title, symbol: network.symbol, chainId: null, networkType: null },
  targetAddress: `0x${T}`,
  txHash: null,
  topUp: leg,
  charged: leg,
  fee,
  pipeline: { id: 'p', status: 'finished', totalAmountInUsd: '1', createdAt: NOW },
  createdAt: NOW,
  updatedAt: NOW,
};
const deposit: Deposit = {
  id: `d-${T}`,
  status: `ok ${T}`,
  amount: '1000000',
  assetId: 'a1',
  crypto,
  network,
  txHash: `0x${T}`,
  txFrom: `0x${T}`,
  fee,
  createdAt: NOW,
};
const invoice = (overrides: Partial<Invoice> = {}): Invoice => ({
  id: `i-${T}`,
  usdAmount: '5.00',
  status: `pending ${T}`,
  paymentPageLink: 'https://pay.example/i/1?a=1&b=2',
  productTitle: T,
  extraData: T,
  cryptoAmount: null,
  crypto: null,
  network: null,
  fee,
  address: null,
  expiredAt: new Date(NOW.getTime() + 3_600_000),
  ...overrides,
});
const swap: Swap = {
  id: `s-${T}`,
  amountFrom: '1000000',
  amountFromInUsd: '1.00',
  amountTo: '990000',
  amountToInUsd: '0.99',
  assetIdFrom: 'a1',
  assetIdTo: 'a2',
  cryptoIdFrom: 'c1',
  cryptoIdTo: 'c2',
  hashFrom: `0x${T}`,
  hashTo: null,
  status: `done ${T}`,
  fee,
  createdAt: NOW,
};
const snapshot: AssetSnapshot = {
  assetId: 'a1',
  symbol: `US${T}`,
  networkSymbol: network.symbol,
  networkTitle: network.title,
  decimals: 6,
};
const quote = (status: SwapQuote['status']): SwapQuote => ({
  id: 'q1',
  estimateId: 'e1',
  estimatedAt: ISO,
  expiresAt: new Date(NOW.getTime() + 1_800_000).toISOString(),
  requestedBy: 'U0RILEY',
  channelId: 'C1',
  from: snapshot,
  to: { ...snapshot, assetId: 'a2', symbol: `UC${T}` },
  amountFrom: '1000000',
  estimatedAmount: '990000',
  routeType: T,
  serviceId: 's',
  status,
  decidedBy: 'U0AVERY',
  decidedAt: ISO,
  swapId: `s-${T}`,
  swapStatus: T,
  amountTo: '990000',
  hashFrom: `0x${T}`,
  feeSummary: T,
  failure: T,
  history: [],
});
const policy = { approvers: ['U0AVERY'], allowSelfApproval: false };
const withdrawalFailure: FailureFacts = {
  kind: 'withdrawal',
  id: `w-${T}`,
  status: T,
  createdAt: ISO,
  symbol: `US${T}`,
  decimals: 6,
  network: { title: network.title, symbol: network.symbol },
  amount: '1000000',
  amountInUsd: '1.00',
  address: `0x${T}`,
  txHash: null,
};
const taskFailure: FailureFacts = {
  kind: 'task',
  id: `t-${T}`,
  status: T,
  createdAt: ISO,
  subStatus: T,
  symbol: `US${T}`,
  decimals: 6,
  network: { title: network.title, symbol: network.symbol },
  amount: '1000000',
  amountInUsd: null,
  type: T,
  targetsCount: 3,
  payoutId: `p-${T}`,
  assetId: 'a1',
  transferTxHash: null,
  payoutTxHash: null,
};
const gasFailure: FailureFacts = {
  kind: 'gas',
  id: `g-${T}`,
  status: T,
  createdAt: ISO,
  subStatus: T,
  network: { title: network.title, symbol: network.symbol },
  targetAddress: `0x${T}`,
  txHash: null,
  charged: { amountFormatted: '1.5', currency: `C${T}`, amountInUsd: '1.50' },
  topUp: null,
  pipelineId: `p-${T}`,
};
const alertStatus: AlertStatusView = {
  channel: 'C0ALERTS',
  schedule: T,
  nextRun: NOW,
  polling: false,
  sources: [{ source: 'withdrawals', lastSuccessAt: NOW, consecutiveFailures: 1, lastError: { at: NOW, message: T } }],
  lastError: { where: T, at: NOW, message: T },
  sentLast24h: 1,
  waiting: 0,
  apiDownSince: null,
};

const cases: Array<[string, () => SlackMessage]> = [
  ['invoice, USD, created', () => invoices.buildInvoice(invoice(), { now: NOW, mode: 'created', shareable: true })],
  [
    'invoice, crypto, looked up',
    () =>
      invoices.buildInvoice(invoice({ cryptoAmount: '1000000', crypto, network, address: `0x${T}` }), {
        now: NOW,
        mode: 'lookup',
        shareable: false,
        sharedBy: '<@U0RILEY>',
      }),
  ],
  ['withdrawal', () => withdrawals.buildWithdrawal(withdrawal, { shareable: true })],
  [
    'withdrawal page',
    () => withdrawals.buildWithdrawalPage({ items: [withdrawal], totalCount: 30, page: 2, perPage: 10 }, NOW),
  ],
  ['deposit', () => deposits.buildDeposit(deposit, { shareable: true })],
  ['payout task', () => payouts.buildPayoutTask(task, { shareable: true })],
  [
    'payout task list with a typed filter',
    () =>
      payouts.buildPayoutTaskList(
        { items: [task], cursorNext: null, cursorPrevious: null },
        { status: 'failed', cursor: null, offset: 0 },
        `failed · ${T}`,
      ),
  ],
  ['asset detail', () => assets.buildAssetDetail(asset, NOW)],
  ['balances', () => assets.buildBalances([asset], NOW)],
  [
    'gas list',
    () =>
      gas.buildGasList(
        { items: [gasRow], cursorNext: null, cursorPrevious: null },
        { status: 'failed', cursor: null, offset: 0 },
      ),
  ],
  ['swap detail', () => swaps.buildSwapDetail(swap, { from: snapshot, to: snapshot })],
  ...(['pending', 'created', 'create_failed', 'outcome_unknown', 'rejected'] as const).map(
    (status): [string, () => SlackMessage] => [
      `swap quote, ${status}`,
      () => swaps.buildQuoteMessage(quote(status), policy, NOW),
    ],
  ),
  ['swap history', () => swaps.buildSwapHistory([quote('created')])],
  ['withdrawal alert', () => alerts.buildFailureAlert(withdrawalFailure)],
  ['payout task alert', () => alerts.buildFailureAlert(taskFailure)],
  ['gas alert', () => alerts.buildFailureAlert(gasFailure)],
  [
    'failure summary',
    () =>
      alerts.buildFailureSummary(
        'withdrawal',
        Array.from({ length: 3 }, () => withdrawalFailure),
      ),
  ],
  [
    'api down',
    () =>
      alerts.buildApiDownAlert(
        { kind: 'api_down', since: ISO, problems: [{ source: 'withdrawals', code: 'server', message: T, polls: 2 }] },
        NOW,
      ),
  ],
  ['alert status', () => alerts.buildAlertStatus(alertStatus, NOW)],
  [
    'a usage mistake quoting what was typed',
    () => errors.buildFailure(new UsageError(`"${T}" is not a withdrawal id.`, 'withdrawal <id>')),
  ],
  [
    "a refusal in the payment service's words",
    () =>
      errors.buildFailure(new PaymentsValidationError('createInvoice', T, [{ field: 'productTitle', messages: [T] }])),
  ],
];

type TextObject = { where: string; type: 'plain_text' | 'mrkdwn'; text: string };

/** The notification text and every text object in the blocks (fields, accessories, confirm dialogs…). */
function textObjects(message: SlackMessage): TextObject[] {
  const found: TextObject[] = [{ where: 'text', type: 'mrkdwn', text: message.text }];
  const walk = (value: unknown, where: string): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, `${where}/${i}`);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const v = value as Record<string, unknown>;
    if ((v.type === 'plain_text' || v.type === 'mrkdwn') && typeof v.text === 'string')
      found.push({ where, type: v.type, text: v.text });
    for (const [key, child] of Object.entries(v)) walk(child, `${where}/${key}`);
  };
  walk(message.blocks, 'blocks');
  return found;
}

// Markup the builders write themselves: mentions of ids, channel links, links to http(s) addresses.
const OUR_MARKUP = /<(?:@[UW][A-Z0-9]+|#[CGD][A-Z0-9]+|https?:\/\/[^\s<>|]+\|[^<>]*)>/g;

/** What is wrong with one text object, if anything. */
function problemOf(t: TextObject): string | undefined {
  if (t.type === 'plain_text')
    return /&(?:amp|lt|gt);/.test(t.text) ? 'an entity in plain_text (shown literally)' : undefined;
  if (/&amp;(?:amp|lt|gt);/.test(t.text)) return 'escaped twice';
  const text = t.text.replace(OUR_MARKUP, '');
  if (/[<>]/.test(text)) return 'a raw < or > in mrkdwn';
  if (/&(?!(?:amp|lt|gt);)/.test(text)) return 'a raw & in mrkdwn';
  return undefined;
}

describe('text the bot did not write, in every view', () => {
  it.each(cases)('%s: escaped once in mrkdwn, literal in plain_text', (_, build) => {
    const message = build();
    const problems = textObjects(message).flatMap((t) => {
      const problem = problemOf(t);
      return problem ? [`${t.where} (${t.type}): ${problem}: ${JSON.stringify(t.text.slice(0, 200))}`] : [];
    });
    expect(problems).toEqual([]);
    // The text is shown, not dropped.
    expect(textObjects(message).some((t) => t.text.includes(T) || t.text.includes('R&amp;D &lt;beta&gt;'))).toBe(true);
  });

  it('an invoice shows the typed title literally in its header and once escaped in its fields', () => {
    const message = invoices.buildInvoice(invoice(), { now: NOW, mode: 'created', shareable: true });
    const texts = textObjects(message);
    expect(texts.find((t) => t.type === 'plain_text' && t.text.startsWith('Invoice'))?.text).toBe(
      `Invoice created: $5.00 — ${T}`,
    );
    expect(texts.map((t) => t.text)).toContain('*Title*\nR&amp;D &lt;beta&gt;');
    expect(message.text).toContain('Invoice created: $5.00 — R&amp;D &lt;beta&gt;: ');
    // An address with `&` is escaped inside the link as well, as Slack writes its own links.
    expect(texts.map((t) => t.text)).toContain(
      '*Payment page:* <https://pay.example/i/1?a=1&amp;b=2|https://pay.example/i/1?a=1&amp;b=2>',
    );
  });
});
