/**
 * Every Block Kit builder, fed extreme data (300 assets, 5000-character titles, 300-character hashes, 2^256-1
 * amounts…), posted with a real WebClient through the Slack stand-in's chat.postMessage, which refuses what Slack
 * refuses. A builder bug shows up here as Slack's own error, e.g. `invalid_blocks` with its json-pointer.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/blocks/common.js';
import * as errors from '../../src/blocks/errors.js';
import * as help from '../../src/commands/help-blocks.js';
import { SUBCOMMANDS } from '../../src/commands/index.js';
import type { AlertStatusView } from '../../src/features/alerts/blocks.js';
import * as alerts from '../../src/features/alerts/blocks.js';
import type { AlertFacts, FailureFacts } from '../../src/features/alerts/kinds/index.js';
import { openAlertLife } from '../../src/features/alerts/lifecycle.js';
import { firstView } from '../../src/features/alerts/owned.js';
import * as invoices from '../../src/features/invoices/blocks.js';
import * as assets from '../../src/features/lookups/balance-blocks.js';
import * as deposits from '../../src/features/lookups/deposit-blocks.js';
import * as gas from '../../src/features/lookups/gas-blocks.js';
import * as withdrawals from '../../src/features/lookups/withdrawal-blocks.js';
import * as payouts from '../../src/features/payouts/blocks.js';
import type { PayoutRequest } from '../../src/features/payouts/rules.js';
import * as swaps from '../../src/features/swaps/blocks.js';
import { MAX_POLICY_CENTS, snapshotPolicy } from '../../src/features/swaps/policy.js';
import type { AssetSnapshot, SwapQuote } from '../../src/features/swaps/quote.js';
import { AmountError, UserFacingError } from '../../src/kernel/errors.js';
import { UsageError } from '../../src/kernel/usage-error.js';
import {
  type Asset,
  type Deposit,
  type GasDistribution,
  type Invoice,
  PaymentsForbiddenError,
  PaymentsNetworkError,
  PaymentsNotFoundError,
  PaymentsRateLimitedError,
  PaymentsServerError,
  PaymentsUnauthorizedError,
  PaymentsUnexpectedResponseError,
  PaymentsValidationError,
  type PayoutTask,
  type Swap,
  type Withdrawal,
} from '../../src/payments/index.js';
import { validateBlocks } from '../support/rig/block-kit-validation.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const ISO = NOW.toISOString();
const LONG = 'x'.repeat(5_000);
const HASH = 'h'.repeat(300);
const ADDRESS = 'z'.repeat(300);
// The largest amount a token can have (2^256 - 1 base units): the parser's ceiling. Lists use 40 digits (10^22
// tokens of 18 decimals): with 2^256-1 in every row a list outgrows Slack's whole-message limit (see the report).
const MAX_UNITS = (2n ** 256n - 1n).toString();
const BIG_UNITS = '9'.repeat(40);
const HOSTILE = '<!channel> <http://evil.example|click> & `code` *bold*';

const crypto = {
  id: 'c1',
  title: 'Tether USD',
  symbol: 'USDT',
  contractAddress: `0x${'a'.repeat(40)}`,
  decimals: 6,
  logoURI: null,
};
const network = {
  id: 'n1',
  title: 'A very long network name for testing purposes',
  symbol: 'ETH',
  chainId: '1',
  networkType: 'evm',
};
const leg = {
  amount: MAX_UNITS,
  amountFormatted: `${'1'.repeat(40)}.123456`,
  currency: 'USDT',
  cryptoId: 'c1',
  networkId: 'n1',
  amountInUsd: `${'9'.repeat(30)}.99`,
  isChargedToMerchant: true,
};
const fee = { network: [leg, leg, leg], service: leg, exchange: null, totalInUsd: `${'9'.repeat(30)}.99` };

function asset(i: number, balance = BIG_UNITS): Asset {
  return {
    id: `asset-${i}-${'0'.repeat(40)}`,
    wallet: ADDRESS,
    feePercent: '0.5',
    feeUsd: '0.10',
    balance,
    balanceInUsd: `${i}${'9'.repeat(20)}.5`,
    balanceForWithdrawal: balance,
    balanceUnits: 'base_units',
    crypto: { ...crypto, symbol: `TOKEN${i}`, contractAddress: ADDRESS },
    network,
    createdAt: NOW,
  };
}

function withdrawal(i: number): Withdrawal {
  return {
    id: `w-${i}-${'0'.repeat(60)}`,
    status: 'failed',
    address: ADDRESS,
    amount: MAX_UNITS,
    amountInUsd: `${'9'.repeat(30)}.99`,
    payer: HOSTILE,
    isPrivate: false,
    asset: { id: 'a', balance: MAX_UNITS, balanceInUsd: '1', wallet: null },
    crypto,
    network,
    fee,
    txHash: HASH,
    createdAt: NOW,
  };
}

function task(i: number, amount = BIG_UNITS): PayoutTask {
  return {
    id: `t-${i}-${'0'.repeat(60)}`,
    type: 'multi_tx',
    status: 'failed',
    subStatus: 'some_long_sub_status_value',
    payoutId: 'p'.repeat(100),
    amount,
    amountInUsd: `${'9'.repeat(30)}.99`,
    assetId: 'a',
    crypto,
    network,
    transferTxHash: HASH,
    payoutTxHash: HASH,
    targetsCount: 300,
    fee,
    createdAt: NOW,
  };
}

function gasRow(i: number): GasDistribution {
  return {
    id: `g-${i}-${'0'.repeat(60)}`,
    status: 'failed',
    subStatus: 'not_enough_donor_balance',
    network: { id: 'n', title: network.title, symbol: 'ETH', chainId: null, networkType: null },
    targetAddress: ADDRESS,
    txHash: HASH,
    topUp: leg,
    charged: leg,
    fee,
    pipeline: { id: 'p', status: 'finished', totalAmountInUsd: '1', createdAt: NOW },
    createdAt: new Date(NOW.getTime() - i * 60_000),
    updatedAt: NOW,
  };
}

const deposit: Deposit = {
  id: 'd'.repeat(300),
  status: 'success',
  amount: MAX_UNITS,
  assetId: 'a',
  crypto,
  network,
  txHash: HASH,
  txFrom: ADDRESS,
  fee: { ...fee, totalInUsd: null },
  createdAt: NOW,
};

function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 'i'.repeat(300),
    usdAmount: `${'9'.repeat(20)}.99`,
    status: 'pending',
    paymentPageLink: `https://pay.example/${'p'.repeat(2_000)}`,
    productTitle: LONG,
    extraData: LONG,
    cryptoAmount: MAX_UNITS,
    crypto,
    network,
    fee,
    address: ADDRESS,
    expiredAt: NOW,
    ...overrides,
  };
}

const swap: Swap = {
  id: 's'.repeat(300),
  amountFrom: MAX_UNITS,
  amountFromInUsd: `${'9'.repeat(30)}.99`,
  amountTo: MAX_UNITS,
  amountToInUsd: `${'9'.repeat(30)}.99`,
  assetIdFrom: 'a',
  assetIdTo: 'b',
  cryptoIdFrom: 'c1',
  cryptoIdTo: 'c2',
  hashFrom: HASH,
  hashTo: HASH,
  status: 'finished',
  fee,
  createdAt: NOW,
};

const fromAsset: AssetSnapshot = {
  assetId: 'a',
  symbol: 'USDT',
  networkSymbol: 'ETH',
  networkTitle: network.title,
  decimals: 6,
};
const toAsset: AssetSnapshot = {
  assetId: 'b',
  symbol: 'USDC',
  networkSymbol: 'ETH',
  networkTitle: network.title,
  decimals: 6,
};

/** A payout request at its extremes: the longest name the service takes, full of what mrkdwn must escape. */
function payoutRequest(status: PayoutRequest['status']): PayoutRequest {
  return {
    id: '3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f',
    requestedBy: 'U0RILEY',
    requestedAt: NOW.toISOString(),
    channelId: 'C0TREASURY',
    asset: { ...fromAsset, symbol: 'S'.repeat(40), networkSymbol: 'N'.repeat(40), networkTitle: 'T'.repeat(150) },
    name: '&<>🎉'.repeat(51),
    status,
    confirmedBy: 'U0RILEY',
    confirmedAt: NOW.toISOString(),
    ...(status === 'created' ? { payoutId: 'p'.repeat(128) } : {}),
    shown: [
      ['Name', '<!channel>'.repeat(20)],
      ['Status', 's'.repeat(200)],
      ['Asset id', 'a'.repeat(200)],
      ['Created', 'c'.repeat(200)],
    ],
    failure: '<!here> & '.repeat(300),
    history: [],
  };
}

/** A quote under a policy of 100 approvals from 100 people and 20 groups, 99 of them given. */
function bigQuorum(): Pick<SwapQuote, 'policy' | 'approvals'> {
  const userIds = many(100, (i) => `U${String(i).padStart(10, '0')}`);
  const policy = snapshotPolicy(
    {
      tiers: [{ minCents: 0n, approvals: 100 }],
      approvers: [...userIds, ...many(20, (i) => `S${String(i).padStart(10, '0')}`)],
      allowSelfApproval: false,
      maxUsdCents: MAX_POLICY_CENTS,
      dailyLimitUsdCents: MAX_POLICY_CENTS,
    },
    { cents: MAX_POLICY_CENTS },
    NOW,
  );
  return { policy, approvals: userIds.slice(0, 99).map((userId) => ({ userId, at: NOW.toISOString() })) };
}

function quote(status: SwapQuote['status'], overrides: Partial<SwapQuote> = {}): SwapQuote {
  return {
    id: 'q'.repeat(36),
    estimateId: 'e',
    estimatedAt: ISO,
    expiresAt: ISO,
    requestedBy: 'U0REQUESTER',
    channelId: 'C1',
    from: fromAsset,
    to: toAsset,
    amountFrom: MAX_UNITS,
    estimatedAmount: MAX_UNITS,
    routeType: 'dex',
    serviceId: 's',
    status,
    decidedBy: 'U0APPROVER',
    decidedAt: ISO,
    swapId: 'f'.repeat(36),
    swapStatus: 'processing',
    amountTo: MAX_UNITS,
    hashFrom: HASH,
    hashTo: HASH,
    feeSummary: LONG,
    failure: LONG,
    followEndedAt: ISO,
    history: [],
    ...overrides,
  };
}
const approvers = { approvers: Array.from({ length: 100 }, (_, i) => `U0APPROVER${i}`), allowSelfApproval: false };

const withdrawalAlert: FailureFacts = {
  kind: 'withdrawal',
  id: 'w'.repeat(300),
  status: HOSTILE,
  createdAt: ISO,
  symbol: 'USDT',
  decimals: 6,
  network: { title: network.title, symbol: 'ETH' },
  amount: MAX_UNITS,
  amountInUsd: `${'9'.repeat(30)}.99`,
  address: ADDRESS,
  txHash: HASH,
};
const taskAlert: FailureFacts = {
  kind: 'task',
  id: 't'.repeat(300),
  status: 'failed',
  createdAt: ISO,
  subStatus: LONG,
  symbol: 'USDT',
  decimals: 6,
  network: { title: LONG, symbol: 'ETH' },
  amount: MAX_UNITS,
  amountInUsd: null,
  type: 'multi_tx',
  targetsCount: 300,
  payoutId: 'p'.repeat(300),
  assetId: 'a',
  transferTxHash: HASH,
  payoutTxHash: null,
};
const gasAlert: FailureFacts = {
  kind: 'gas',
  id: 'g'.repeat(300),
  status: 'failed',
  createdAt: ISO,
  subStatus: 'not_enough_donor_balance',
  network: { title: LONG, symbol: 'ETH' },
  targetAddress: ADDRESS,
  txHash: null,
  charged: { amountFormatted: `${'1'.repeat(40)}.5`, currency: 'USDT', amountInUsd: '9'.repeat(30) },
  topUp: null,
  pipelineId: 'p'.repeat(300),
};
const apiDown: Extract<AlertFacts, { kind: 'api_down' }> = {
  kind: 'api_down',
  since: new Date(NOW.getTime() - 3 * 3_600_000).toISOString(),
  problems: ['withdrawals', 'tasks', 'gas'].map((source) => ({ source, code: 'server', message: LONG, polls: 1_000 })),
};
const apiRecovered: Extract<AlertFacts, { kind: 'api_recovered' }> = {
  kind: 'api_recovered',
  since: apiDown.since,
  recoveredAt: ISO,
};
const alertStatus: AlertStatusView = {
  channel: 'C0ALERTS',
  schedule: '*/5 * * * *',
  nextRun: NOW,
  polling: true,
  sources: (['withdrawals', 'tasks', 'gas'] as const).map((source) => ({
    source,
    lastSuccessAt: NOW,
    consecutiveFailures: 1_000,
    lastError: { at: NOW, message: LONG },
  })),
  lastError: { where: 'payment API (withdrawals)', at: NOW, message: LONG },
  sentLast24h: 100_000,
  waiting: 5_000,
  apiDownSince: NOW,
};

const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** One builder call with extreme data; `builder` names the export it exercises. */
interface Case {
  builder: string;
  name: string;
  build: () => SlackMessage;
}

const cases: Case[] = [
  {
    builder: 'alerts.buildFailureAlert',
    name: 'a failed withdrawal, 300-character address and hash, hostile status',
    build: () => alerts.buildFailureAlert(withdrawalAlert),
  },
  {
    builder: 'alerts.buildFailureAlert',
    name: 'a failed payout task, 5000-character sub-status and network',
    build: () => alerts.buildFailureAlert(taskAlert),
  },
  {
    builder: 'alerts.buildFailureAlert',
    name: 'a gas top-up short of donor balance',
    build: () => alerts.buildFailureAlert(gasAlert),
  },
  ...(['withdrawal', 'task', 'gas'] as const).map(
    (kind): Case => ({
      builder: 'alerts.buildFailureSummary',
      name: `a summary of 500 ${kind} failures`,
      build: () =>
        alerts.buildFailureSummary(
          kind,
          many(500, (i) => ({
            ...{ withdrawal: withdrawalAlert, task: taskAlert, gas: gasAlert }[kind],
            id: `${i}-${'x'.repeat(300)}`,
          })),
        ),
    }),
  ),
  ...(['withdrawal', 'task', 'gas'] as const).flatMap((kind): Case[] => {
    const failures = many(500, (i) => ({
      ...{ withdrawal: withdrawalAlert, task: taskAlert, gas: gasAlert }[kind],
      id: `${i}-${'x'.repeat(300)}`,
    }));
    const parts = alerts.planSummaryThread(failures);
    return [parts[0]!, parts[parts.length - 1]!].map(
      (part): Case => ({
        builder: 'alerts.buildSummaryThreadPart',
        name: `part ${part.part} of ${parts.length} of the thread listing 500 ${kind} failures`,
        build: () => alerts.buildSummaryThreadPart(kind, part, parts.length, failures.length),
      }),
    );
  }),
  // The alert people own, its thread, its answers and its modal (alerts/blocks.ts draws them since it holds every
  // alert builder): the modals' blocks are posted as a message's, to hold them to Block Kit's limits.
  {
    builder: 'alerts.buildAlertMessage',
    name: 'an owned withdrawal alert with a 300-character key, a mention and a refusing route',
    build: () =>
      alerts.buildAlertMessage(firstView(`withdrawal:${'k'.repeat(300)}`, [{ facts: withdrawalAlert }], NOW), NOW, {
        mention: '<!subteam^S0ONCALL>',
        redirectedFrom: { channel: 'C0GONE', error: 'is_archived' },
      }),
  },
  {
    builder: 'alerts.buildAlertMessage',
    name: 'an owned summary of 500 gas failures',
    build: () =>
      alerts.buildAlertMessage(
        firstView(
          'summary:gas:1',
          many(500, (i) => ({ facts: { ...gasAlert, id: `gas-${i}-${'x'.repeat(200)}` } })),
          NOW,
        ),
        NOW,
      ),
  },
  {
    builder: 'alerts.buildAlertThreadLine',
    name: 'a resolution with a 5000-character hostile note',
    build: () =>
      alerts.buildAlertThreadLine(
        { type: 'resolved_by_person', by: 'U0AVERY', at: ISO, note: `${HOSTILE}${LONG}` },
        NOW,
      ),
  },
  {
    builder: 'alerts.buildAlertRefusal',
    name: 'an outdated click',
    build: () => {
      const { text } = alerts.buildAlertRefusal({ ok: false, reason: 'outdated', current: openAlertLife(NOW) });
      return { text, blocks: [] };
    },
  },
  {
    builder: 'alerts.buildOpenAlerts',
    name: '30 open alerts with hostile titles of 1000',
    build: () =>
      alerts.buildOpenAlerts(
        many(30, (i) => ({
          view: firstView(`withdrawal:${i}`, [{ facts: { ...withdrawalAlert, id: `${HOSTILE}${i}` } }], NOW),
          postedAt: ISO,
          permalink: `https://example.slack.com/archives/C0ALERTS/p${i}`,
        })),
        1_000,
        NOW,
      ),
  },
  {
    builder: 'alerts.buildResolveModal',
    name: "the Resolve modal's blocks for a withdrawal alert",
    build: () => {
      const view = firstView('withdrawal:1', [{ facts: withdrawalAlert }], NOW);
      const modal = alerts.buildResolveModal(view, { ref: 'withdrawal:1', version: 0, channel: 'C0ALERTS' }, true, NOW);
      return { text: modal.title.text, blocks: modal.blocks as SlackMessage['blocks'] };
    },
  },
  {
    builder: 'alerts.buildResolveRefusedModal',
    name: "the refused Resolve modal's blocks with a hostile reason",
    build: () => {
      const modal = alerts.buildResolveRefusedModal(`${HOSTILE}${LONG}`.slice(0, 2_900));
      return { text: modal.title.text, blocks: modal.blocks };
    },
  },
  {
    builder: 'alerts.buildApiDownAlert',
    name: 'three sources down with 5000-character messages',
    build: () => alerts.buildApiDownAlert(apiDown, NOW),
  },
  {
    builder: 'alerts.buildApiDownAlert',
    name: 'the key refused',
    build: () =>
      alerts.buildApiDownAlert(
        { ...apiDown, problems: [{ source: LONG, code: 'unauthorized', message: LONG, polls: 1 }] },
        NOW,
      ),
  },
  {
    builder: 'alerts.buildApiRecoveredAlert',
    name: 'recovered',
    build: () => alerts.buildApiRecoveredAlert(apiRecovered),
  },
  ...[withdrawalAlert, taskAlert, gasAlert, apiDown, apiRecovered].map(
    (facts): Case => ({
      builder: 'alerts.buildAlert',
      name: `any alert: ${facts.kind}`,
      build: () => alerts.buildAlert(facts, NOW),
    }),
  ),
  { builder: 'alerts.buildAlertStatus', name: 'the poller off', build: () => alerts.buildAlertStatus(null, NOW) },
  {
    builder: 'alerts.buildAlertStatus',
    name: 'every source failing with 5000-character errors',
    build: () => alerts.buildAlertStatus(alertStatus, NOW),
  },
  {
    builder: 'alerts.buildAlertStatus',
    name: 'a channel that is not an id',
    build: () => alerts.buildAlertStatus({ ...alertStatus, channel: LONG, schedule: LONG }, NOW),
  },

  {
    builder: 'assets.buildBalances',
    name: '300 assets with 40-digit balances',
    build: () =>
      assets.buildBalances(
        many(300, (i) => asset(i)),
        NOW,
      ),
  },
  {
    builder: 'assets.buildBalances',
    name: '300 assets with 2^256-1 balances',
    build: () =>
      assets.buildBalances(
        many(300, (i) => asset(i, MAX_UNITS)),
        NOW,
      ),
  },
  { builder: 'assets.buildBalances', name: 'no assets', build: () => assets.buildBalances([], NOW) },
  {
    builder: 'assets.buildAssetDetail',
    name: 'one asset of 2^256-1, 300-character wallet and contract',
    build: () => assets.buildAssetDetail(asset(1, MAX_UNITS), NOW),
  },

  {
    builder: 'deposits.buildDeposit',
    name: 'a deposit with 300-character id, hash and sender, shareable',
    build: () => deposits.buildDeposit(deposit, { shareable: true }),
  },
  {
    builder: 'deposits.buildDeposit',
    name: 'the shared copy',
    build: () =>
      deposits.buildDeposit(
        { ...deposit, id: 'd1', txHash: null, txFrom: null },
        { shareable: false, sharedBy: '<@U0SHARER>' },
      ),
  },

  ...[
    new UserFacingError(LONG),
    new UsageError(LONG, LONG),
    new AmountError('too_large', LONG),
    new PaymentsValidationError(
      'createInvoice',
      LONG,
      many(50, (i) => ({ field: i % 2 ? 'productTitle' : `field${i}`, messages: ['m'.repeat(300)] })),
    ),
    new PaymentsValidationError(
      'createInvoice',
      LONG,
      many(50, () => ({ field: 'productTitle', messages: ['m'.repeat(5_000)] })),
    ),
    new PaymentsForbiddenError('getAsset', LONG),
    new PaymentsForbiddenError('getAsset', undefined),
    new PaymentsUnexpectedResponseError('listAssets', LONG, 200),
    new PaymentsUnauthorizedError('listAssets'),
    new PaymentsNotFoundError('getInvoice'),
    new PaymentsRateLimitedError('listAssets', 1_000),
    new PaymentsNetworkError('listAssets', 'ETIMEDOUT'),
    new PaymentsServerError('listAssets', 503, LONG),
    new Error(LONG),
  ].map(
    (error): Case => ({
      builder: 'errors.buildFailure',
      name: `the failure reply for ${error.constructor.name}`,
      build: () => errors.buildFailure(error, LONG),
    }),
  ),

  {
    builder: 'gas.buildGasList',
    name: 'a slice of 20 of an API page of 50, long cursor',
    build: () =>
      gas.buildGasList(
        { items: many(50, gasRow), cursorNext: 'c'.repeat(500), cursorPrevious: null },
        { cursor: 'c'.repeat(500), offset: 0 },
      ),
  },
  {
    builder: 'gas.buildGasList',
    name: 'the last slice, filtered',
    build: () =>
      gas.buildGasList(
        { items: many(50, gasRow), cursorNext: null, cursorPrevious: null },
        { status: 'cancelled', cursor: null, offset: 40 },
      ),
  },
  {
    builder: 'gas.buildGasList',
    name: 'nothing',
    build: () => gas.buildGasList({ items: [], cursorNext: null, cursorPrevious: null }, { cursor: null, offset: 0 }),
  },

  {
    builder: 'help.buildHelp',
    name: 'help: the groups',
    build: () => help.buildHelp(),
  },
  ...SUBCOMMANDS.map(
    (subcommand): Case => ({
      builder: 'help.buildHelp',
      name: `help ${subcommand.name}`,
      build: () => help.buildHelp({ topic: subcommand.name }),
    }),
  ),
  {
    builder: 'help.buildHelp',
    name: 'help about a 3000-character hostile word',
    build: () => help.buildHelp({ topic: '<!channel>*_~`'.repeat(200) }),
  },

  {
    builder: 'invoices.buildInvoice',
    name: 'a created invoice, 5000-character title and extra data, 2000-character link',
    build: () => invoices.buildInvoice(invoice(), { now: NOW, mode: 'created', shareable: true }),
  },
  {
    builder: 'invoices.buildInvoice',
    name: 'a looked-up USD invoice, hostile title, expired',
    build: () =>
      invoices.buildInvoice(
        invoice({ productTitle: HOSTILE, crypto: null, network: null, cryptoAmount: null, address: null }),
        { now: new Date(NOW.getTime() + 1), mode: 'lookup', shareable: false, sharedBy: '<@U0SHARER>' },
      ),
  },
  {
    builder: 'invoices.buildInvoice',
    name: 'a created invoice that is followed',
    build: () => invoices.buildInvoice(invoice(), { now: NOW, mode: 'created', shareable: true, followed: true }),
  },
  {
    builder: 'invoices.buildInvoice',
    name: 'a shared copy no longer followed, hostile status',
    build: () =>
      invoices.buildInvoice(invoice({ status: HOSTILE }), {
        now: NOW,
        mode: 'lookup',
        shareable: false,
        sharedBy: '<@U0SHARER>',
        outcome: { kind: 'dropped', at: NOW.toISOString(), reason: 'bound' },
      }),
  },
  {
    builder: 'invoices.buildInvoice',
    name: 'a shared copy of an invoice that expired unpaid, 5000-character status',
    build: () =>
      invoices.buildInvoice(invoice({ status: 'x'.repeat(5_000) }), {
        now: NOW,
        mode: 'lookup',
        shareable: false,
        sharedBy: '<@U0SHARER>',
        outcome: { kind: 'expired', at: NOW.toISOString() },
      }),
  },
  {
    builder: 'invoices.buildInvoiceNotice',
    name: 'the direct message of an invoice now in a 5000-character status the spec never names',
    build: () =>
      invoices.buildInvoiceNotice(invoice({ status: 'x'.repeat(5_000) }), {
        outcome: { kind: 'changed', at: NOW.toISOString() },
        now: NOW,
        max: 100,
      }),
  },
  {
    builder: 'invoices.buildInvoiceNotice',
    name: 'the direct message of an invoice that expired unpaid, hostile title',
    build: () =>
      invoices.buildInvoiceNotice(invoice({ productTitle: HOSTILE, crypto: null, cryptoAmount: null }), {
        outcome: { kind: 'expired', at: NOW.toISOString() },
        now: NOW,
        max: 100,
      }),
  },
  {
    builder: 'invoices.buildInvoiceNotice',
    name: 'the note of an invoice no longer followed (over the bound, and unreadable)',
    build: () => {
      const bound = invoices.buildInvoiceNotice(invoice(), {
        outcome: { kind: 'dropped', at: NOW.toISOString(), reason: 'bound' },
        now: NOW,
        max: 1_000_000,
      });
      const unreadable = invoices.buildInvoiceNotice(invoice(), {
        outcome: { kind: 'dropped', at: NOW.toISOString(), reason: 'unreadable' },
        now: NOW,
        max: 100,
      });
      return { text: bound.text, blocks: [...bound.blocks.slice(0, 3), ...unreadable.blocks.slice(0, 3)] };
    },
  },

  {
    builder: 'payouts.buildPayoutTaskList',
    name: 'a slice of 25 of an API page of 50, long cursor',
    build: () =>
      payouts.buildPayoutTaskList(
        { items: many(50, task), cursorNext: 'c'.repeat(500), cursorPrevious: null },
        { cursor: 'c'.repeat(500), offset: 0 },
        'failed · TOKEN',
      ),
  },
  {
    builder: 'payouts.buildPayoutTaskList',
    name: '25 tasks of 2^256-1 with 135-character sub-statuses',
    build: () =>
      payouts.buildPayoutTaskList(
        {
          items: many(50, (i) => ({ ...task(i, MAX_UNITS), subStatus: 's'.repeat(135) })),
          cursorNext: null,
          cursorPrevious: null,
        },
        { cursor: null, offset: 0 },
        'failed',
      ),
  },
  {
    builder: 'payouts.buildPayoutTaskList',
    name: 'nothing',
    build: () =>
      payouts.buildPayoutTaskList(
        { items: [], cursorNext: null, cursorPrevious: null },
        { cursor: null, offset: 0 },
        '',
      ),
  },
  {
    builder: 'payouts.buildPayoutTask',
    name: 'one task of 2^256-1, 300-character hashes',
    build: () => payouts.buildPayoutTask(task(1, MAX_UNITS), { shareable: true }),
  },
  {
    builder: 'payouts.buildPayoutProposal',
    name: 'a 255-character name of `&<>` and emoji, a network title of the header limit (the dialog clips the name)',
    build: () => payouts.buildPayoutProposal(payoutRequest('proposed')),
  },
  ...(['sending', 'created', 'refused', 'outcome_unknown', 'expired', 'cancelled'] as const).map(
    (status): Case => ({
      builder: 'payouts.buildPayoutOutcome',
      name: `a ${status} payout request with a 255-character name and 200-character answer fields`,
      build: () => payouts.buildPayoutOutcome(payoutRequest(status)),
    }),
  ),

  ...(['pending', 'approving', 'created', 'create_failed', 'outcome_unknown', 'rejected', 'expired'] as const).map(
    (status): Case => ({
      builder: 'swaps.buildQuoteMessage',
      name: `a ${status} quote with 2^256-1 amounts and 100 approvers`,
      build: () => swaps.buildQuoteMessage(quote(status), approvers, NOW),
    }),
  ),
  {
    builder: 'swaps.buildQuoteMessage',
    name: 'a pending quote whose confirm dialog would restate over 300 characters (17-letter symbols, 100-digit estimate)',
    build: () =>
      swaps.buildQuoteMessage(
        quote('pending', {
          from: { ...fromAsset, symbol: 'ABCDEFGHIJKLMNOPQ' },
          to: { ...toAsset, symbol: 'ABCDEFGHIJKLMNOPQ' },
          estimatedAmount: '9'.repeat(100),
        }),
        approvers,
        NOW,
      ),
  },
  ...(['pending', 'created', 'rejected', 'expired'] as const).map(
    (status): Case => ({
      builder: 'swaps.buildQuoteMessage',
      name: `a ${status} quote needing 100 approvals from 100 people and 20 groups, 99 of them given`,
      build: () => swaps.buildQuoteMessage(quote(status, bigQuorum()), approvers, NOW),
    }),
  ),
  {
    builder: 'swaps.buildQuoteReminder',
    name: '100 approvers and 20 groups yet to act',
    build: () =>
      swaps.buildQuoteReminder(
        quote('pending', bigQuorum()),
        bigQuorum().policy!,
        {
          userIds: many(100, (i) => `U${String(i).padStart(10, '0')}`),
          groupIds: many(20, (i) => `S${String(i).padStart(10, '0')}`),
        },
        NOW,
      ),
  },
  {
    builder: 'swaps.buildQuoteMessage',
    name: 'a pending quote with no approvers configured',
    build: () => swaps.buildQuoteMessage(quote('pending'), { approvers: [], allowSelfApproval: true }, NOW),
  },
  {
    builder: 'swaps.buildQuoteMessage',
    name: 'an expired quote that was replaced',
    build: () =>
      swaps.buildQuoteMessage(
        quote('expired', { replacedBy: 'r'.repeat(36), replaces: 'o'.repeat(36) }),
        approvers,
        NOW,
      ),
  },
  {
    builder: 'swaps.buildQuotePostedNote',
    name: 'the note to the requester when approvers are configured',
    build: () => swaps.buildQuotePostedNote(quote('pending'), approvers),
  },
  {
    builder: 'swaps.buildQuotePostedNote',
    name: 'the note when nobody can approve',
    build: () => swaps.buildQuotePostedNote(quote('pending'), { approvers: [], allowSelfApproval: false }),
  },
  {
    builder: 'swaps.buildSwapDetail',
    name: 'a swap with 300-character hashes',
    build: () => swaps.buildSwapDetail(swap, { from: fromAsset, to: toAsset }),
  },
  {
    builder: 'swaps.buildSwapDetail',
    name: 'a swap of unknown assets, not finished',
    build: () => swaps.buildSwapDetail({ ...swap, amountTo: null, hashFrom: null, hashTo: null, fee: null }, {}),
  },
  {
    builder: 'swaps.buildSwapHistory',
    name: '15 quotes',
    build: () => swaps.buildSwapHistory(many(15, (i) => quote(i % 2 ? 'created' : 'rejected', { id: `q-${i}` }))),
  },
  { builder: 'swaps.buildSwapHistory', name: 'no quotes', build: () => swaps.buildSwapHistory([]) },

  ...[1, 2, 100].map(
    (page): Case => ({
      builder: 'withdrawals.buildWithdrawalPage',
      name: `page ${page} of 100, ten withdrawals with 300-character addresses${page === 2 ? ' (both Previous and Next)' : ''}`,
      build: () =>
        withdrawals.buildWithdrawalPage({ items: many(10, withdrawal), totalCount: 1_000, page, perPage: 10 }, NOW),
    }),
  ),
  {
    builder: 'withdrawals.buildWithdrawalPage',
    name: 'past the end (First page)',
    build: () => withdrawals.buildWithdrawalPage({ items: [], totalCount: 1_000, page: 500, perPage: 10 }, NOW),
  },
  {
    builder: 'withdrawals.buildWithdrawalPage',
    name: 'no withdrawals at all',
    build: () => withdrawals.buildWithdrawalPage({ items: [], totalCount: 0, page: 1, perPage: 10 }, NOW),
  },
  {
    builder: 'withdrawals.buildWithdrawal',
    name: 'one withdrawal, shareable',
    build: () => withdrawals.buildWithdrawal(withdrawal(1), { shareable: true }),
  },
];

const token = 'xoxb-builders';
let slack: SlackStandIn;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: token });
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentWebApiLogger,
  });
});
afterAll(() => slack?.close());

/** Posts a message and returns what Slack (the stand-in) answered, refusals included. */
async function postMessage(message: SlackMessage): Promise<Record<string, unknown>> {
  try {
    return {
      ...(await client.chat.postMessage({ channel: 'C_BUILDERS', text: message.text, blocks: message.blocks })),
    };
  } catch (error) {
    const data = (error as { data?: Record<string, unknown> }).data;
    if (data === undefined) throw error;
    return data;
  }
}

describe('every builder, with extreme data, is accepted by chat.postMessage', () => {
  it.each(cases.map((c) => [`${c.builder}: ${c.name}`, c] as const))('%s', async (_, c) => {
    const answer = await postMessage(c.build());
    // On failure this shows Slack's error and its `[json-pointer:…]` lines.
    expect({ ok: answer.ok, error: answer.error, errors: answer.errors }).toEqual({
      ok: true,
      error: undefined,
      errors: undefined,
    });
  });

  it('covers every build* export of src/blocks', () => {
    const modules = { alerts, assets, deposits, errors, gas, help, invoices, payouts, swaps, withdrawals };
    const exported = Object.entries(modules).flatMap(([name, module]) =>
      Object.entries(module)
        .filter(([key, value]) => key.startsWith('build') && typeof value === 'function')
        .map(([key]) => `${name}.${key}`),
    );
    expect(new Set(cases.map((c) => c.builder))).toEqual(new Set(exported));
  });
});

describe('the withdrawals pager, page 2', () => {
  it('is posted with distinct action_ids for Previous and Next', async () => {
    const message = withdrawals.buildWithdrawalPage(
      { items: many(10, withdrawal), totalCount: 1_000, page: 2, perPage: 10 },
      NOW,
    );
    const answer = await postMessage(message);
    expect(answer.ok).toBe(true);
    const actionsBlock = message.blocks.find((b) => b.type === 'actions') as { elements: Array<{ action_id: string }> };
    expect(actionsBlock.elements.map((e) => e.action_id)).toEqual([
      'withdrawals_page_previous',
      'withdrawals_page_next',
    ]);
  });

  it('would have been refused with the old shared action_id', async () => {
    const message = withdrawals.buildWithdrawalPage(
      { items: many(10, withdrawal), totalCount: 1_000, page: 2, perPage: 10 },
      NOW,
    );
    const index = message.blocks.findIndex((b) => b.type === 'actions');
    const actionsBlock = message.blocks[index] as { elements: Array<{ action_id: string }> };
    const oldBlocks = message.blocks.map((b, i) =>
      i === index
        ? { ...actionsBlock, elements: actionsBlock.elements.map((e) => ({ ...e, action_id: 'withdrawals_page' })) }
        : b,
    );
    const pointer = `/blocks/${index}/elements/1/action_id`;
    expect(validateBlocks(oldBlocks)).toEqual([{ pointer, message: 'duplicate action_id: withdrawals_page' }]);
    expect(await postMessage({ text: message.text, blocks: oldBlocks as SlackMessage['blocks'] })).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
      errors: [`duplicate action_id: withdrawals_page [json-pointer:${pointer}]`],
    });
  });
});
