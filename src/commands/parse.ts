/**
 * Turns the text after `/treasury` into a typed command, without any API call. Anything wrong with the
 * text is a UsageError: its `message` is plain text, its `mrkdwn` the escaped message and the usage line.
 */

import { ALERT_TRAIL_RETENTION_MS } from '../features/alerts/trail.js';
import { checkPayoutName } from '../features/payouts/rules.js';
import { parseUsdLimit } from '../features/swaps/policy.js';
import { formatDuration, parseDuration } from '../kernel/durations.js';
import { UserFacingError } from '../kernel/errors.js';
import { escapeText } from '../kernel/text.js';
import { MAX_PAYMENT_DELAY_SECONDS } from '../payments/index.js';

/** A problem with what the user typed; `usage` is the subcommand's syntax to show next to it. Code `usage`. */
export class UsageError extends UserFacingError {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(`${escapeText(message)}${usage ? `\nUsage: \`/treasury ${escapeText(usage)}\`` : ''}`, 'usage', message);
    this.name = 'UsageError';
  }
}

/** Options of `invoice`. */
export interface InvoiceOptions {
  /** paymentDelayTime in seconds. */
  expiresInSeconds?: number;
  /** `--asset`: the predefined asset of a USD invoice. */
  asset?: string;
  /** `--data`: extraData. */
  data?: string;
}

export const PAYOUT_STATUSES = ['pending', 'failed', 'success'] as const;
export const GAS_STATUSES = ['pending', 'cancelled', 'failed', 'success'] as const;

/** Every parsed `/treasury` command. */
export type TreasuryCommand =
  /** `unknown`: what was typed instead of a subcommand, answered with the help. */
  | { kind: 'help'; unknown?: string }
  | { kind: 'balances' }
  | { kind: 'balance'; asset: string }
  | { kind: 'invoice-info'; invoiceId: string }
  /** `words` is everything after the amount: an asset reference and/or the title, told apart with the asset list. */
  | { kind: 'invoice-create'; amount: string; words: string[]; options: InvoiceOptions }
  | { kind: 'withdrawals'; page: number }
  | { kind: 'withdrawal'; withdrawalId: string }
  /** `payoutId`: a UUID typed after `payouts` (the feature reads it as an asset when it is one's id). */
  | { kind: 'payouts'; status?: (typeof PAYOUT_STATUSES)[number]; asset?: string; payoutId?: string }
  /** `name` is trimmed and within the service's length. */
  | { kind: 'payout-create'; asset: string; name: string }
  | { kind: 'task'; taskId: string }
  | { kind: 'deposit'; depositId: string }
  | { kind: 'gas'; status?: (typeof GAS_STATUSES)[number] }
  | { kind: 'swap-quote'; amount: string; from: string; to: string }
  | { kind: 'swap-info'; swapId: string }
  | { kind: 'swaps' }
  | { kind: 'policy'; amountCents?: bigint }
  | { kind: 'alerts' }
  | { kind: 'alerts-open' }
  /** `amount` as typed: a USD value when it says `$`/`USD`, else token units (read with the asset's decimals). */
  | { kind: 'threshold-set'; asset: string; amount: string; usd: boolean }
  | { kind: 'threshold-off'; asset: string }
  | { kind: 'thresholds' }
  | { kind: 'digest' }
  /** `period` as the person should read it back (`30d`), `periodMs` the same in milliseconds. */
  | { kind: 'audit'; periodMs: number; period: string };

/** Syntax of each subcommand, with an example; the help text is built from this. */
export const USAGE = {
  help: ['help', 'this list'],
  balances: ['balances', 'every asset with its balance and USD value'],
  balance: ['balance <asset>', 'one asset, e.g. `balance USDT@BSC`'],
  invoice: ['invoice <amount> [title…]', 'USD invoice, e.g. `invoice $49.99 Pro plan --expires 2h`'],
  invoiceCrypto: ['invoice <amount> <asset> [title…]', 'crypto invoice, e.g. `invoice 0.05 ETH Consulting`'],
  invoiceInfo: ['invoice <invoice-id>', 'status of an invoice'],
  withdrawals: ['withdrawals [page]', 'recent withdrawals, newest first'],
  withdrawal: ['withdrawal <id>', 'one withdrawal'],
  payouts: [
    'payouts [pending|failed|success] [asset] [payout-id]',
    'payout tasks, e.g. `payouts failed USDT`; with a payout id, the tasks of that payout',
  ],
  payoutCreate: [
    'payout create <asset> "<name>"',
    'an empty payout container, after you confirm, e.g. `payout create USDT@BSC "November affiliates"`',
  ],
  task: ['task <id>', 'one payout task with its gas'],
  deposit: ['deposit <id>', 'one deposit'],
  gas: ['gas [pending|cancelled|failed|success]', 'gas manager top-ups, e.g. `gas failed`'],
  swap: [
    'swap <amount> <from-asset> to <to-asset>',
    'a swap quote for approval, e.g. `swap 1,000 USDT@ETH to USDC@ETH`',
  ],
  swapInfo: ['swap <swap-id>', 'one swap: status, amounts, hashes, fee'],
  swaps: ['swaps', 'recent swap quotes and who decided them'],
  policy: ['policy [usd-amount]', 'who approves swaps, the limits; e.g. `policy $250,000` says what that amount needs'],
  alerts: ['alerts', 'the failure-alert poller: last polls, last error, alerts sent, open alerts, next run'],
  alertsOpen: ['alerts open', 'alerts not resolved yet, oldest first: what, age, who has it, a link to each'],
  thresholds: ['thresholds', 'balance thresholds with each balance now'],
  threshold: [
    'threshold <asset> below <amount | $usd> | off',
    'alert when a balance runs low (admins), e.g. `threshold USDT@BSC below $5,000`',
  ],
  digest: ['digest', 'the daily digest now, only for you: balances and their change, alerts, swaps, limits'],
  audit: [
    'audit <period>',
    'the audit trail as a CSV file in your direct messages (admins), e.g. `audit 30d` (at most 400d)',
  ],
} as const satisfies Record<string, readonly [string, string]>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the UUID ids the API uses. */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * Splits on whitespace, keeping quoted phrases together ("…", '…' and Slack's curly quotes), so that
 * `--data "order 42"` is one option value.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /"([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    tokens.push(match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? '');
  }
  return tokens;
}

function requireId(args: string[], what: string, usage: readonly [string, string]): string {
  const [id, extra] = args;
  if (id === undefined) throw new UsageError(`Which ${what}? Give its id.`, usage[0]);
  if (extra !== undefined) throw new UsageError(`Give only the ${what} id.`, usage[0]);
  if (!isUuid(id))
    throw new UsageError(`"${id}" is not a ${what} id (ids look like 3f2b8c1e-5a4d-4c2b-9e1f-0a1b2c3d4e5f).`, usage[0]);
  return id.toLowerCase();
}

function parseInvoiceOptions(tokens: string[]): { words: string[]; options: InvoiceOptions } {
  const words: string[] = [];
  const options: InvoiceOptions = {};
  const given = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const optionMatch = /^--(expires|asset|data)(?:=(.*))?$/.exec(token);
    if (!optionMatch) {
      if (token.startsWith('--'))
        throw new UsageError(
          `Unknown option ${token}. Invoice options are --expires, --asset and --data.`,
          USAGE.invoice[0],
        );
      // `—expires` (some keyboards and clients turn `--` into a dash) or `-expires` would otherwise join the title.
      const dashed = /^(?:-|\u2014|\u2013)+([A-Za-z][\w-]*)(?:=.*)?$/.exec(token);
      if (dashed)
        throw new UsageError(
          `"${token}" looks like an option: write it with two hyphens (--${dashed[1]}). Invoice options are --expires, --asset and --data.`,
          USAGE.invoice[0],
        );
      words.push(token);
      continue;
    }
    const name = optionMatch[1]!;
    // Given twice, the last one would silently win: refuse rather than pick.
    if (given.has(name)) throw new UsageError(`--${name} is given twice: give it once.`, USAGE.invoice[0]);
    given.add(name);
    const value = optionMatch[2] ?? tokens[++i];
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value.`, USAGE.invoice[0]);
    if (name === 'expires') {
      const ms = parseDuration(value);
      if (ms === undefined)
        throw new UsageError(`--expires takes a duration such as 30m, 2h or 1d, not "${value}".`, USAGE.invoice[0]);
      if (ms % 1000 !== 0 || ms / 1000 > MAX_PAYMENT_DELAY_SECONDS) {
        throw new UsageError(
          '--expires can be at most 24h (the payment service allows 86400 seconds).',
          USAGE.invoice[0],
        );
      }
      options.expiresInSeconds = ms / 1000;
    } else if (name === 'asset') {
      options.asset = value;
    } else {
      options.data = value;
    }
  }
  return { words, options };
}

/** Parses the text of `/treasury …`. */
export function parseTreasuryCommand(text: string): TreasuryCommand {
  const [rawSubcommand, ...args] = tokenize(text.trim());
  const subcommand = rawSubcommand?.toLowerCase();
  switch (subcommand) {
    case undefined:
    case 'help':
      return { kind: 'help' };
    case 'balances':
      if (args.length > 0)
        throw new UsageError(
          `\`balances\` takes nothing after it; for one asset, \`balance ${args.join(' ')}\`.`,
          USAGE.balances[0],
        );
      return { kind: 'balances' };
    case 'balance': {
      if (args.length === 0) return { kind: 'balances' };
      if (args.length > 1) throw new UsageError('Give one asset, e.g. `balance USDT@ETH`.', USAGE.balance[0]);
      return { kind: 'balance', asset: args[0]! };
    }
    case 'invoice': {
      const [first, ...rest] = args;
      if (first === undefined)
        throw new UsageError('Give an amount to invoice, or an invoice id to look up.', USAGE.invoice[0]);
      if (isUuid(first) && rest.length === 0) return { kind: 'invoice-info', invoiceId: first.toLowerCase() };
      const { words, options } = parseInvoiceOptions(rest);
      return { kind: 'invoice-create', amount: first, words, options };
    }
    case 'withdrawals': {
      if (args.length > 1) throw new UsageError('Give at most a page number.', USAGE.withdrawals[0]);
      const page = args[0] === undefined ? 1 : /^\d{1,6}$/.test(args[0]) ? Number(args[0]) : NaN;
      if (!(page >= 1)) throw new UsageError(`"${args[0]}" is not a page number.`, USAGE.withdrawals[0]);
      return { kind: 'withdrawals', page };
    }
    case 'withdrawal':
      return { kind: 'withdrawal', withdrawalId: requireId(args, 'withdrawal', USAGE.withdrawal) };
    case 'payouts':
    case 'tasks': {
      let status: (typeof PAYOUT_STATUSES)[number] | undefined;
      let asset: string | undefined;
      let payoutId: string | undefined;
      for (const arg of args) {
        const lower = arg.toLowerCase();
        if ((PAYOUT_STATUSES as readonly string[]).includes(lower)) {
          if (status !== undefined) throw new UsageError('Give at most one status.', USAGE.payouts[0]);
          status = lower as (typeof PAYOUT_STATUSES)[number];
        } else if (isUuid(arg) && payoutId === undefined) payoutId = lower;
        else if (asset === undefined) asset = arg;
        else throw new UsageError(`Unexpected "${arg}".`, USAGE.payouts[0]);
      }
      return { kind: 'payouts', status, asset, ...(payoutId === undefined ? {} : { payoutId }) };
    }
    case 'payout': {
      const [verb, asset, ...words] = args;
      if (verb?.toLowerCase() !== 'create')
        throw new UsageError(
          'To create a payout container, say `payout create`, the asset and a name.',
          USAGE.payoutCreate[0],
        );
      if (asset === undefined || words.length === 0)
        throw new UsageError(
          'Give the asset and a name in quotes, e.g. `payout create USDT@BSC "November affiliates"`.',
          USAGE.payoutCreate[0],
        );
      // A name in quotes is one word; one typed without quotes is the words after the asset.
      const checked = checkPayoutName(words.join(' '));
      if (!checked.ok) throw new UsageError(checked.problem, USAGE.payoutCreate[0]);
      return { kind: 'payout-create', asset, name: checked.name };
    }
    case 'task':
      return { kind: 'task', taskId: requireId(args, 'payout task', USAGE.task) };
    case 'deposit':
      return { kind: 'deposit', depositId: requireId(args, 'deposit', USAGE.deposit) };
    case 'gas': {
      if (args.length > 1) throw new UsageError('Give at most one status.', USAGE.gas[0]);
      const status = args[0]?.toLowerCase();
      if (status !== undefined && !(GAS_STATUSES as readonly string[]).includes(status)) {
        throw new UsageError(`"${args[0]}" is not a gas status: use ${GAS_STATUSES.join(', ')}.`, USAGE.gas[0]);
      }
      return { kind: 'gas', status: status as (typeof GAS_STATUSES)[number] | undefined };
    }
    case 'swap': {
      if (args.length === 1 && isUuid(args[0]!)) return { kind: 'swap-info', swapId: args[0]!.toLowerCase() };
      const words = args.length === 4 && args[2]!.toLowerCase() === 'to' ? [args[0]!, args[1]!, args[3]!] : args;
      if (words.length !== 3) {
        throw new UsageError(
          'Give an amount and two assets, e.g. `swap 1,000 USDT@ETH to USDC@ETH`, or a swap id.',
          USAGE.swap[0],
        );
      }
      return { kind: 'swap-quote', amount: words[0]!, from: words[1]!, to: words[2]! };
    }
    case 'swaps':
      if (args.length > 0)
        throw new UsageError('`swaps` takes nothing after it; for one swap, `swap <swap-id>`.', USAGE.swaps[0]);
      return { kind: 'swaps' };
    case 'policy': {
      if (args.length === 0) return { kind: 'policy' };
      const { limitCents, problems } = parseUsdLimit(args.join(' '), 'policy');
      if (limitCents === undefined)
        throw new UsageError(
          `${problems[0]?.replace(/^policy: /, '') ?? 'Give a USD amount'}: e.g. \`policy $250,000\`.`,
          USAGE.policy[0],
        );
      return { kind: 'policy', amountCents: limitCents };
    }
    case 'alerts':
      if (args.length === 1 && args[0]!.toLowerCase() === 'open') return { kind: 'alerts-open' };
      if (args.length > 0)
        throw new UsageError(
          '`alerts` takes nothing after it, or `open`.',
          `${USAGE.alerts[0]} | ${USAGE.alertsOpen[0]}`,
        );
      return { kind: 'alerts' };
    case 'audit': {
      const [typed, extra] = args;
      if (typed === undefined || extra !== undefined)
        throw new UsageError('Give one period, e.g. `audit 30d` or `audit 7d`.', USAGE.audit[0]);
      const periodMs = parseDuration(typed);
      if (periodMs === undefined)
        throw new UsageError(`"${typed}" is not a period: use e.g. 30d, 7d or 12h.`, USAGE.audit[0]);
      if (periodMs > ALERT_TRAIL_RETENTION_MS)
        throw new UsageError('The trail keeps 400 days: give at most 400d.', USAGE.audit[0]);
      return { kind: 'audit', periodMs, period: formatDuration(periodMs) };
    }
    case 'digest':
      if (args.length > 0) throw new UsageError('`digest` takes nothing after it.', USAGE.digest[0]);
      return { kind: 'digest' };
    case 'thresholds':
      if (args.length > 0) throw new UsageError('`thresholds` takes nothing after it.', USAGE.thresholds[0]);
      return { kind: 'thresholds' };
    case 'threshold': {
      const [asset, verb, ...amount] = args;
      if (asset === undefined)
        throw new UsageError('Which asset? e.g. `threshold USDT@BSC below 5,000`.', USAGE.threshold[0]);
      if (verb?.toLowerCase() === 'off' && amount.length === 0) return { kind: 'threshold-off', asset };
      if (verb?.toLowerCase() !== 'below' || amount.length === 0)
        throw new UsageError(
          'Say `below` and an amount in token units (`below 5,000`) or in USD (`below $5,000`), or `off`.',
          USAGE.threshold[0],
        );
      const text = amount.join(' ');
      const usd = /^[-\u2212]?\s*(?:us)?\$|^usd\b|\busd$/i.test(text.trim());
      return { kind: 'threshold-set', asset, amount: text, usd };
    }
    default:
      // A typo is best answered by the list of what exists.
      return { kind: 'help', unknown: rawSubcommand };
  }
}
