/**
 * What each view shows a person: one focused test per builder in src/blocks (swaps.ts has its own tests),
 * asserting the visible text (headers, lines, fields, buttons) rather than snapshots of the JSON.
 */
import { describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/blocks/common.js';
import { buildFailure } from '../../src/blocks/errors.js';
import { ACTION_IDS } from '../../src/blocks/ids.js';
import { recordFooter } from '../../src/blocks/share.js';
import { buildHelp } from '../../src/commands/help-blocks.js';
import type { AlertStatusView } from '../../src/features/alerts/blocks.js';
import {
  buildAlert,
  buildAlertStatus,
  buildApiDownAlert,
  buildApiRecoveredAlert,
  buildFailureAlert,
  buildFailureSummary,
} from '../../src/features/alerts/blocks.js';
import type { AlertFacts, FailureFacts } from '../../src/features/alerts/kinds/index.js';
import { buildInvoice } from '../../src/features/invoices/blocks.js';
import { buildAssetDetail, buildBalances } from '../../src/features/lookups/balance-blocks.js';
import { buildDeposit } from '../../src/features/lookups/deposit-blocks.js';
import { buildGasList } from '../../src/features/lookups/gas-blocks.js';
import { buildWithdrawal, buildWithdrawalPage } from '../../src/features/lookups/withdrawal-blocks.js';
import { buildPayoutTask, buildPayoutTaskList } from '../../src/features/payouts/blocks.js';
import { parseTokenAmount } from '../../src/kernel/amounts.js';
import { UserFacingError } from '../../src/kernel/errors.js';
import { UsageError } from '../../src/kernel/usage-error.js';
import {
  type Asset,
  type Deposit,
  type Fee,
  type GasDistribution,
  type Invoice,
  PaymentsServerError,
  type PayoutTask,
  type Withdrawal,
} from '../../src/payments/index.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const usdt = {
  id: 'c-usdt',
  title: 'Tether USD',
  symbol: 'USDT',
  contractAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  decimals: 6,
  logoURI: null,
};
const eth = { id: 'c-eth', title: 'Ether', symbol: 'ETH', contractAddress: null, decimals: 18, logoURI: null };
const ethereum = { id: 'n-eth', title: 'Ethereum', symbol: 'ETH', chainId: '1', networkType: 'evm' };
const ADDRESS = '0x1111222233334444555566667777888899990000';
const TX = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdef1234';
const serviceLeg = {
  amount: '1500000',
  amountFormatted: '1.5',
  currency: 'USDT',
  cryptoId: 'c-usdt',
  networkId: 'n-eth',
  amountInUsd: '1.50',
  isChargedToMerchant: true,
};
const fee: Fee = { network: [], service: serviceLeg, exchange: null, totalInUsd: '1.50' };
const ID = '3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f';

/** Everything a person reads in the message: the notification text and every block's visible text. */
function visible(message: SlackMessage): string {
  return `${message.text}\n${blocksToText(message.blocks)}`;
}

function asset(overrides: Partial<Asset> = {}): Asset {
  return {
    id: 'a-usdt',
    wallet: ADDRESS,
    feePercent: '0.5',
    feeUsd: '0.10',
    balance: '1234567890000',
    balanceInUsd: '1234567.89',
    balanceForWithdrawal: '1000000000000',
    balanceUnits: 'base_units',
    crypto: usdt,
    network: ethereum,
    createdAt: NOW,
    ...overrides,
  };
}

const withdrawal: Withdrawal = {
  id: ID,
  status: 'success',
  address: ADDRESS,
  amount: '250000000',
  amountInUsd: '250.00',
  payer: 'ops@example.com',
  isPrivate: false,
  asset: { id: 'a-usdt', balance: '0', balanceInUsd: '0', wallet: null },
  crypto: usdt,
  network: ethereum,
  fee,
  txHash: TX,
  createdAt: new Date('2026-11-21T09:30:00Z'),
};

const payoutTask: PayoutTask = {
  id: ID,
  type: 'multi_tx',
  status: 'failed',
  subStatus: 'not_enough_balance',
  payoutId: 'payout-7',
  amount: '1000000000',
  amountInUsd: '1000.00',
  assetId: 'a-usdt',
  crypto: usdt,
  network: ethereum,
  transferTxHash: null,
  payoutTxHash: null,
  targetsCount: 12,
  fee: { ...fee, network: [{ ...serviceLeg, amountFormatted: '0.002', currency: 'ETH', amountInUsd: '6.00' }] },
  createdAt: new Date('2026-11-20T08:00:00Z'),
};

const gasRow: GasDistribution = {
  id: ID,
  status: 'failed',
  subStatus: 'not_enough_donor_balance',
  network: { id: 'n-eth', title: 'Ethereum', symbol: 'ETH', chainId: null, networkType: null },
  targetAddress: ADDRESS,
  txHash: null,
  topUp: { ...serviceLeg, amountFormatted: '0.01', currency: 'ETH', amountInUsd: '30.00' },
  charged: { ...serviceLeg, amountFormatted: '30', currency: 'USDT', amountInUsd: '30.00' },
  fee,
  pipeline: { id: 'p', status: 'finished', totalAmountInUsd: '30', createdAt: NOW },
  createdAt: new Date('2026-11-22T11:00:00Z'),
  updatedAt: NOW,
};

const deposit: Deposit = {
  id: ID,
  status: 'success',
  amount: '5000000000000000000',
  assetId: 'a-eth',
  crypto: eth,
  network: ethereum,
  txHash: TX,
  txFrom: ADDRESS,
  fee: { ...fee, totalInUsd: null },
  createdAt: new Date('2026-11-22T10:15:00Z'),
};

function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: ID,
    usdAmount: '49.99',
    status: 'pending',
    paymentPageLink: 'https://pay.example/i/abc',
    productTitle: 'Pro plan',
    extraData: null,
    cryptoAmount: null,
    crypto: null,
    network: null,
    fee,
    address: null,
    expiredAt: new Date('2026-11-22T14:00:00Z'),
    ...overrides,
  };
}

const withdrawalFailure: FailureFacts = {
  kind: 'withdrawal',
  id: ID,
  status: 'failed',
  createdAt: '2026-11-22T11:45:00.000Z',
  symbol: 'USDT',
  decimals: 6,
  network: { title: 'Ethereum', symbol: 'ETH' },
  amount: '250000000',
  amountInUsd: '250.00',
  address: ADDRESS,
  txHash: null,
};

const apiDown: Extract<AlertFacts, { kind: 'api_down' }> = {
  kind: 'api_down',
  since: '2026-11-22T09:00:00.000Z',
  problems: [{ source: 'withdrawals', code: 'server', message: 'HTTP 503', polls: 3 }],
};

describe('balances (assets.ts)', () => {
  it('buildBalances shows the total in the header and one line per asset, largest first', () => {
    const text = visible(
      buildBalances(
        [asset({ id: 'a-eth', crypto: eth, balance: '2000000000000000000', balanceInUsd: '6000.00' }), asset()],
        NOW,
      ),
    );
    expect(text).toContain('Balances · $1,240,567.89');
    expect(text).toContain('*USDT* · Ethereum (ETH) — 1,234,567.89 USDT · $1,234,567.89');
    expect(text).toContain('*ETH* · Ethereum (ETH) — 2 ETH · $6,000.00');
    expect(text.indexOf('*USDT*')).toBeLessThan(text.indexOf('*ETH*'));
    expect(text).toContain('2 assets · total $1,240,567.89 · as of 2026-11-22 12:00 UTC');
  });

  it('buildAssetDetail shows balance, what can be withdrawn, wallet and the SYMBOL@NETWORK reference', () => {
    const text = visible(buildAssetDetail(asset(), NOW));
    expect(text).toContain('USDT on Ethereum');
    expect(text).toContain('*Balance*\n1,234,567.89 USDT');
    expect(text).toContain('*Available for withdrawal*\n1,000,000 USDT');
    expect(text).toContain('*Fee*\n0.5% + $0.10');
    expect(text).toContain(`*Wallet*\n\`${ADDRESS}\``);
    expect(text).toContain('Asset `USDT@ETH`');
  });
});

describe('invoices (invoices.ts)', () => {
  it('buildInvoice shows the payment link, the amount and when it expires', () => {
    const text = visible(buildInvoice(invoice(), { now: NOW, mode: 'created', shareable: true }));
    expect(text).toContain('Invoice created: $49.99 — Pro plan');
    expect(text).toContain('*Payment page:* <https://pay.example/i/abc|https://pay.example/i/abc>');
    expect(text).toContain('*Expires*\n2026-11-22 14:00 UTC (in 2 hours)');
    expect(text).toContain('Share in channel');
  });

  it('buildInvoice of a crypto invoice shows the token amount, network and address to pay', () => {
    const text = visible(
      buildInvoice(
        invoice({
          cryptoAmount: '49990000',
          crypto: usdt,
          network: ethereum,
          address: ADDRESS,
          expiredAt: new Date('2026-11-22T11:00:00Z'),
        }),
        {
          now: NOW,
          mode: 'lookup',
          shareable: false,
        },
      ),
    );
    expect(text).toContain('Invoice 49.99 USDT — Pro plan');
    expect(text).toContain('*Amount*\n49.99 USDT ($49.99)');
    expect(text).toContain('*Expired*\n2026-11-22 11:00 UTC (1 hour ago)');
    expect(text).toContain(`*Pay to address*\n\`${ADDRESS}\``);
    expect(text).not.toContain('Share in channel');
  });
});

describe('withdrawals (withdrawals.ts)', () => {
  it('buildWithdrawal shows the amount, the destination and the transaction', () => {
    const text = visible(buildWithdrawal(withdrawal, { shareable: true }));
    expect(text).toContain('Withdrawal · 250 USDT');
    expect(text).toContain('*Amount*\n250 USDT ($250.00)');
    expect(text).toContain(`*Destination*\n\`${ADDRESS}\``);
    expect(text).toContain(`*Transaction*\n\`${TX}\``);
    expect(text).toContain(`Withdrawal id \`${ID}\``);
  });

  it('buildWithdrawalPage shows the page count, one line per withdrawal and the pager', () => {
    const message = buildWithdrawalPage({ items: [withdrawal], totalCount: 25, page: 2, perPage: 10 }, NOW);
    const text = visible(message);
    expect(text).toContain('Withdrawals · page 2 of 3');
    expect(text).toContain('*250 USDT* on Ethereum (ETH) ($250.00)');
    expect(text).toContain('to `0x111122…99990000`');
    expect(text).toContain('25 withdrawals in all, newest first');
    expect(findButtons(message.blocks).map((b) => b.text)).toEqual(['◀ Previous', 'Next ▶']);
  });
});

describe('payouts (payouts.ts)', () => {
  it('buildPayoutTask shows status, targets and the gas it paid', () => {
    const text = visible(buildPayoutTask(payoutTask, { shareable: false, sharedBy: '<@U0OPS>' }));
    expect(text).toContain('Payout task · 1,000 USDT');
    expect(text).toContain('*Status*\n:x: failed · not_enough_balance');
    expect(text).toContain('*Targets*\n12');
    expect(text).toContain('0.002 ETH ($6.00)');
    expect(text).toContain('shared by <@U0OPS>');
  });

  it('buildPayoutTaskList shows the filter and one line per task', () => {
    const message = buildPayoutTaskList(
      { items: [payoutTask], cursorNext: null, cursorPrevious: null },
      { status: 'failed', cursor: null, offset: 0 },
      'failed',
    );
    const text = visible(message);
    expect(text).toContain('Payout tasks · failed');
    expect(text).toContain('*1,000 USDT* on Ethereum (ETH) ($1,000.00) · 12 targets');
    expect(text).toContain('Newest first. That is all.');
    expect(findButtons(message.blocks)).toEqual([]);
  });
});

describe('deposits (deposits.ts)', () => {
  it('buildDeposit shows the amount, the sender and that old fees have no USD price', () => {
    const text = visible(buildDeposit(deposit, { shareable: true }));
    expect(text).toContain('Deposit · 5 ETH');
    expect(text).toContain('*Received*\n2026-11-22 10:15 UTC');
    expect(text).toContain('*Fee total (USD)*\nn/a (this deposit predates USD pricing)');
    expect(text).toContain(`*From*\n\`${ADDRESS}\``);
  });
});

describe('gas (gas.ts)', () => {
  it('buildGasList shows each top-up with what was charged, and says cancelled ones are left out', () => {
    const text = visible(
      buildGasList({ items: [gasRow], cursorNext: null, cursorPrevious: null }, { cursor: null, offset: 0 }),
    );
    expect(text).toContain('Gas top-ups');
    expect(text).toContain(':x: failed · not_enough_donor_balance · Ethereum (ETH) · target `0x111122…99990000`');
    expect(text).toContain('top-up 0.01 ETH ($30.00) · charged 30 USDT ($30.00)');
    expect(text).toContain('Cancelled top-ups are left out; ask for them with `gas cancelled`.');
  });
});

describe('help (help.ts)', () => {
  it('buildHelp is the subcommands by group, in a few lines, and says how to ask about one', () => {
    const text = visible(buildHelp());
    expect(text).toContain('Treasury bot');
    expect(text).toContain(
      '*Look up* — `balances` · `balance` · `withdrawals` · `withdrawal` · `payouts` · `task` · `deposit` · `gas` · `runway`',
    );
    expect(text).toContain('*Get paid* — `invoice`');
    expect(text).toContain('*Move money* — `swap` · `swaps` · `policy` · `payout`');
    expect(text).toContain('*Alerts* — `alerts` · `thresholds` · `threshold` · `digest`');
    expect(text).toContain('*Controls* — `freeze` · `2fa` · `audit`');
    expect(text).toContain(
      '`/treasury help <subcommand>` says what one does, with examples, e.g. `/treasury help swap`.',
    );
    expect(text.split('\n').length).toBeLessThanOrEqual(8);
  });

  it('buildHelp about one subcommand is its lines with examples, and the notes they need', () => {
    const balance = visible(buildHelp({ topic: 'balance' }));
    expect(balance).toContain('/treasury balance');
    // mrkdwn: the placeholder is escaped, so Slack shows `<asset>` instead of reading it as a link.
    expect(balance).toContain('• `/treasury balance &lt;asset&gt;` — one asset, e.g. `balance USDT@BSC`');
    expect(balance).toContain('`&lt;asset&gt;` is an asset id, a symbol unique among your assets (`USDT`)');
    expect(balance).not.toContain('swap');
    const invoice = visible(buildHelp({ topic: 'invoice' }));
    expect(invoice).toContain('`--expires 2h` (at most 24h)');
    expect(visible(buildHelp({ topic: 'tasks' }))).toContain('`/treasury tasks` is the same.');
    expect(visible(buildHelp({ topic: 'audit' }))).toContain('For treasury admins.');
    expect(visible(buildHelp({ topic: 'alerts' }))).toContain('• `/treasury alerts` — the failure-alert poller');
  });
});

describe('share (share.ts)', () => {
  it('recordFooter shows the record id and offers "Share in channel" carrying the record', () => {
    const blocks = recordFooter('withdrawal', 'Withdrawal', ID, { shareable: true });
    expect(blocksToText(blocks)).toContain(`Withdrawal id \`${ID}\``);
    const [share] = findButtons(blocks);
    expect(share).toMatchObject({ text: 'Share in channel', actionId: ACTION_IDS.shareInChannel });
    expect(JSON.parse(share!.value!)).toEqual({ kind: 'withdrawal', id: ID });
    expect(findButtons(recordFooter('withdrawal', 'Withdrawal', ID, { shareable: false }))).toEqual([]);
  });
});

describe('errors (errors.ts)', () => {
  it('buildFailure shows a usage mistake with the syntax, escaped, and no "tell whoever runs the bot"', () => {
    const text = visible(buildFailure(new UsageError('Unknown subcommand "<!here>".', 'help')));
    expect(text).toContain(':warning: Unknown subcommand "&lt;!here&gt;".\nUsage: `/treasury help`');
    expect(text).not.toContain('tell whoever runs the bot');
  });

  it('buildFailure shows the reason of a refused amount', () => {
    let error: unknown;
    try {
      parseTokenAmount('1.1234567', 6, { symbol: 'USDT' });
    } catch (caught) {
      error = caught;
    }
    expect(visible(buildFailure(error))).toContain(':warning: USDT allows at most 6 decimal places; you gave 7.');
  });

  it('buildFailure shows our own words as they are, and a payment service outage as temporary', () => {
    expect(visible(buildFailure(new UserFacingError('No such *invoice* for this merchant.')))).toContain(
      'No such *invoice* for this merchant.',
    );
    const outage = visible(buildFailure(new PaymentsServerError('listAssets', 503, undefined)));
    expect(outage).toContain('The payment service had a problem on its side');
  });

  it('buildFailure of a bug says so and asks to tell whoever runs the bot', () => {
    const text = visible(buildFailure(new TypeError('x is undefined')));
    expect(text).toContain('Something went wrong inside the bot.');
    expect(text).toContain('If this keeps happening, tell whoever runs the bot.');
    expect(text).not.toContain('x is undefined');
  });
});

describe('alerts (alerts.ts)', () => {
  it('buildFailureAlert shows what failed, how much, where to, and what to do', () => {
    const text = visible(buildFailureAlert(withdrawalFailure));
    expect(text).toContain(':x: Withdrawal failed · 250 USDT');
    expect(text).toContain('*Amount*\n250 USDT ($250.00)');
    expect(text).toContain(`*Destination*\n\`${ADDRESS}\``);
    expect(text).toContain('_none: nothing was sent on-chain_');
    expect(text).toContain('The money did not leave the asset.');
  });

  it('buildFailureSummary counts the failures and lists the newest first, then "…and N more"', () => {
    const failures = Array.from(
      { length: 23 },
      (_, i): FailureFacts => ({
        ...withdrawalFailure,
        id: `w-${i}`,
        createdAt: new Date(NOW.getTime() - i * 60_000).toISOString(),
      }),
    );
    const text = visible(buildFailureSummary('withdrawal', failures));
    expect(text).toContain(':rotating_light: 23 withdrawals failed');
    expect(text).toContain('(the newest 20)');
    expect(text.indexOf('`w-0`')).toBeLessThan(text.indexOf('`w-1`'));
    expect(text).not.toContain('`w-20`');
    expect(text).toContain('…and 3 more.');
  });

  it('buildApiDownAlert names the source that cannot be read and since when', () => {
    const text = visible(buildApiDownAlert(apiDown, NOW));
    expect(text).toContain(':warning: Cannot reach the payment API');
    expect(text).toContain('Since 2026-11-22 09:00 UTC (3 hours) the alert poller could not read:');
    expect(text).toContain('• *Withdrawals*: HTTP 503 (3 polls in a row)');
  });

  it('buildApiRecoveredAlert says alerts are back and how long they were not', () => {
    const text = visible(
      buildApiRecoveredAlert({ kind: 'api_recovered', since: apiDown.since, recoveredAt: NOW.toISOString() }),
    );
    expect(text).toContain('The payment API answers again');
    expect(text).toContain('since 2026-11-22 12:00 UTC, after 3 hours without');
  });

  it('buildAlert picks the view by the kind of alert', () => {
    expect(visible(buildAlert(withdrawalFailure, NOW))).toContain('Withdrawal failed · 250 USDT');
    expect(visible(buildAlert(apiDown, NOW))).toContain('Cannot reach the payment API');
  });

  it('buildAlertStatus shows the channel, the schedule and each source, or that the poller is off', () => {
    const view: AlertStatusView = {
      channel: 'C0ALERTS',
      schedule: '* * * * *',
      nextRun: new Date('2026-11-22T12:01:00Z'),
      polling: false,
      sources: [
        {
          source: 'withdrawals',
          lastSuccessAt: new Date('2026-11-22T11:59:00Z'),
          consecutiveFailures: 2,
          lastError: null,
        },
      ],
      lastError: { where: 'Slack', at: new Date('2026-11-22T11:58:00Z'), message: 'ratelimited' },
      sentLast24h: 4,
      waiting: 1,
      apiDownSince: null,
    };
    const text = visible(buildAlertStatus(view, NOW));
    expect(text).toContain('*Channel*\n<#C0ALERTS>');
    expect(text).toContain('*Alerts sent (24 h)*\n4');
    expect(text).toContain(
      '• *Withdrawals*: last successful poll 2026-11-22 11:59 UTC (1 minute ago) · :warning: failed 2 polls in a row',
    );
    expect(text).toContain('*Last error*\nSlack, 2026-11-22 11:58 UTC: ratelimited');
    expect(visible(buildAlertStatus(null, NOW))).toContain('The alert poller is off: `ALERT_CHANNEL` is not set.');
  });
});

describe('an amount a person typed, in the failure reply', () => {
  it('is escaped once: `<x>` reads as "<x>" in Slack, not as "&lt;x&gt;"', () => {
    let error: unknown;
    try {
      parseTokenAmount('<x>', 6);
    } catch (caught) {
      error = caught;
    }
    const text = buildFailure(error).text;
    expect(text).toBe('"&lt;x&gt;" is not a number.');
    expect(text).not.toContain('&amp;');
  });
});
