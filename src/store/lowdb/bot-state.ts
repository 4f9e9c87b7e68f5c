/**
 * The whole lowdb state file as records (BotState: every record the repositories of features/repositories.ts keep)
 * and its loader: the file's JSON, record by record.
 */
import { z } from 'zod';
import { AlertsState, emptyAlertsState, keyedRecord } from '../../features/alerts/records.js';
import { AlertTrailEntry } from '../../features/alerts/trail.js';
import { DailySnapshot, DigestRecord } from '../../features/digest/records.js';
import { emptyFreezeState, FreezeEvent, FreezeRecord, FreezeState } from '../../features/freeze/rules.js';
import { FollowedInvoice } from '../../features/invoices/followed.js';
import { PayoutRequest } from '../../features/payouts/rules.js';
import { SecondFactorEvent, SlackDeletion } from '../../features/second-factor/rules.js';
import { SwapQuote } from '../../features/swaps/quote.js';
import { StoredThreshold, ThresholdChange } from '../../features/thresholds/rules.js';
import { type Loaded, loadAlertsState, loadKeyed, problemOf, type RejectedRecord } from '../load-alerts.js';
import { CorruptStateError } from './state-file.js';

/** Balance thresholds (by asset id) and their trail, daily snapshots and digests (by day). */
export const BalancesState = z.object({
  thresholds: z.record(z.string(), StoredThreshold),
  thresholdChanges: z.array(ThresholdChange),
  snapshots: z.record(z.string(), DailySnapshot),
  digests: z.record(z.string(), DigestRecord),
});
export type BalancesState = z.infer<typeof BalancesState>;

/** The balances part of a new state file (and of one written before balance thresholds existed). */
function emptyBalancesState(): BalancesState {
  return { thresholds: keyedRecord(), thresholdChanges: [], snapshots: keyedRecord(), digests: keyedRecord() };
}

/**
 * The second factor: each person's enrolment as stored (kept as raw JSON and checked when used, so a damaged one
 * stays in the file and fails closed for its owner instead of being set aside, which would un-enrol them) and the
 * trail.
 */
export const SecondFactorState = z.object({
  /**
   * 2: enrolments count for approvals only once another admin confirmed them. A part without it was written before
   * that rule: its enrolled records are carried over as confirmed when the file loads (loadSecondFactor).
   */
  schema: z.literal(2),
  people: z.record(z.string(), z.unknown()),
  trail: z.array(SecondFactorEvent),
  /** Slack deletions of enrolment DMs not yet confirmed by Slack, by id. */
  slackDeletions: z.record(z.string(), SlackDeletion),
});
export type SecondFactorState = z.infer<typeof SecondFactorState>;

/** The second factor part of a new state file (and of one written before it existed). */
function emptySecondFactorState(): SecondFactorState {
  return { schema: 2, people: keyedRecord(), trail: [], slackDeletions: keyedRecord() };
}

/** An alert trail entry in the file: numbered in the order it was appended (the audit export pages by it). */
export const StoredAlertTrailEntry = AlertTrailEntry.extend({ seq: z.number().int().positive() });
export type StoredAlertTrailEntry = z.infer<typeof StoredAlertTrailEntry>;

/** The whole state file. A file written before a part existed loads with that part empty. */
export const BotState = z.object({
  version: z.literal(1),
  swapQuotes: z.record(z.string(), SwapQuote),
  alerts: AlertsState.default(() => emptyAlertsState()),
  balances: BalancesState.default(() => emptyBalancesState()),
  /** Requests to create a payout container, by request id. */
  payouts: z.record(z.string(), PayoutRequest).default(() => keyedRecord<PayoutRequest>()),
  /** Invoices followed until they leave pending, by invoice id. */
  invoices: z.record(z.string(), FollowedInvoice).default(() => keyedRecord<FollowedInvoice>()),
  /** The alert trail: appended with each alert change, oldest first, kept 400 days. */
  alertTrail: z.array(StoredAlertTrailEntry).default(() => []),
  /** The freeze and its trail (files written before the freeze existed load with none). */
  freeze: FreezeState.default(() => emptyFreezeState()),
  /** Second-factor enrolments and their trail (files written before it existed load with none). */
  secondFactor: SecondFactorState.default(() => emptySecondFactorState()),
  /** Forms' submissions claimed, view id → when (ISO): the last day's only (files written before load with none). */
  formSubmissions: z.record(z.string(), z.string()).default(() => keyedRecord<string>()),
});
export type BotState = z.infer<typeof BotState>;

/** Empty state for a first start. */
export function emptyState(): BotState {
  return {
    version: 1,
    swapQuotes: keyedRecord(),
    alerts: emptyAlertsState(),
    balances: emptyBalancesState(),
    payouts: keyedRecord(),
    invoices: keyedRecord(),
    alertTrail: [],
    freeze: emptyFreezeState(),
    secondFactor: emptySecondFactorState(),
    formSubmissions: keyedRecord(),
  };
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An enrolled record of a file written before enrolments needed another admin's confirmation (no `schema`) was
 * valid then and stays valid: it is carried over as confirmed (as PostgreSQL's migration 10 does). Anything else is
 * kept as it is.
 */
function carriedOver(schema: unknown, record: unknown): unknown {
  if (schema !== undefined || !isPlainRecord(record)) return record;
  if (record.state !== 'enrolled' || record.adminConfirmation !== undefined) return record;
  const at = typeof record.enrolledAt === 'string' ? record.enrolledAt : new Date(0).toISOString();
  return { ...record, adminConfirmation: { at } };
}

/**
 * The second factor part: enrolments are kept as they are (checked when used: a damaged one fails closed for its
 * owner, and only an admin's reset removes it); a damaged trail line is set aside, the others kept.
 */
function loadSecondFactor(raw: unknown, rejected: RejectedRecord[]): SecondFactorState {
  const state = emptySecondFactorState();
  if (raw === undefined) return state;
  const part = raw as Record<string, unknown>;
  const people = part.people;
  if (people !== undefined) {
    if (typeof people !== 'object' || people === null || Array.isArray(people))
      throw new CorruptStateError(`its second factor enrolments are ${kindOf(people)}, not a record`);
    for (const [userId, record] of Object.entries(people)) state.people[userId] = carriedOver(part.schema, record);
  }
  if (isPlainRecord(part.slackDeletions)) {
    for (const [id, entry] of Object.entries(part.slackDeletions)) {
      const parsed = SlackDeletion.safeParse(entry);
      if (parsed.success) state.slackDeletions[id] = parsed.data;
      else
        rejected.push({ where: `secondFactor.slackDeletions.${id}`, problem: problemOf(parsed.error), value: entry });
    }
  } else if (part.slackDeletions !== undefined) {
    rejected.push({ where: 'secondFactor.slackDeletions', problem: 'expected a record', value: part.slackDeletions });
  }
  if (Array.isArray(part.trail)) {
    part.trail.forEach((entry: unknown, index: number) => {
      const parsed = SecondFactorEvent.safeParse(entry);
      if (parsed.success) state.trail.push(parsed.data);
      else rejected.push({ where: `secondFactor.trail[${index}]`, problem: problemOf(parsed.error), value: entry });
    });
  } else if (part.trail !== undefined) {
    rejected.push({ where: 'secondFactor.trail', problem: 'expected a list', value: part.trail });
  }
  return state;
}

/**
 * The forms' claims. A claim whose time is damaged is reported but kept, as claimed now: the view did run, and
 * forgetting it could run it a second time (unknown fails closed). It is pruned a day later like any other.
 */
function loadFormSubmissions(raw: unknown, rejected: RejectedRecord[]): Record<string, string> {
  const claims = keyedRecord<string>();
  if (raw === undefined) return claims;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    rejected.push({ where: 'formSubmissions', problem: 'expected an object', value: raw });
    return claims;
  }
  for (const [viewId, at] of Object.entries(raw)) {
    if (typeof at === 'string' && !Number.isNaN(Date.parse(at))) claims[viewId] = at;
    else {
      rejected.push({
        where: `formSubmissions.${viewId}`,
        problem: 'expected a time (kept as claimed now)',
        value: at,
      });
      claims[viewId] = new Date().toISOString();
    }
  }
  return claims;
}

/**
 * The freeze part: a damaged trail line is set aside, the others kept. A damaged freeze record is NOT set aside
 * (that would lift a freeze nobody lifted): the file is refused as a whole, for a person to look at.
 */
function loadFreeze(raw: unknown, rejected: RejectedRecord[]): FreezeState {
  const freeze = emptyFreezeState();
  if (raw === undefined) return freeze;
  const part = raw as Record<string, unknown>;
  if (part.current !== undefined) {
    const parsed = FreezeRecord.safeParse(part.current);
    if (!parsed.success) throw new CorruptStateError(`its freeze is damaged (${problemOf(parsed.error)})`);
    freeze.current = parsed.data;
  }
  if (Array.isArray(part.trail)) {
    part.trail.forEach((entry: unknown, index: number) => {
      const parsed = FreezeEvent.safeParse(entry);
      if (parsed.success) freeze.trail.push(parsed.data);
      else rejected.push({ where: `freeze.trail[${index}]`, problem: problemOf(parsed.error), value: entry });
    });
  } else if (part.trail !== undefined) {
    rejected.push({ where: 'freeze.trail', problem: 'expected a list', value: part.trail });
  }
  // Ended freezes waiting to be announced: news, not the switch, so a damaged one is set aside.
  if (Array.isArray(part.expiredUnannounced)) {
    part.expiredUnannounced.forEach((entry: unknown, index: number) => {
      const parsed = FreezeRecord.safeParse(entry);
      if (parsed.success) freeze.expiredUnannounced = [...(freeze.expiredUnannounced ?? []), parsed.data];
      else
        rejected.push({ where: `freeze.expiredUnannounced[${index}]`, problem: problemOf(parsed.error), value: entry });
    });
  }
  return freeze;
}

/** The balances part, record by record: a damaged threshold, trail entry, snapshot or digest is set aside. */
function loadBalances(raw: unknown, rejected: RejectedRecord[]): BalancesState {
  const balances = emptyBalancesState();
  if (raw === undefined) return balances;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    rejected.push({ where: 'balances', problem: 'expected an object', value: raw });
    return balances;
  }
  const part = raw as Record<string, unknown>;
  balances.thresholds = loadKeyed(part.thresholds, 'balances.thresholds', StoredThreshold, rejected, (key, t) =>
    t.assetId === key ? undefined : 'stored under one asset id but its own asset id is another',
  );
  balances.snapshots = loadKeyed(part.snapshots, 'balances.snapshots', DailySnapshot, rejected, (key, s) =>
    s.day === key ? undefined : 'stored under one day but its own day is another',
  );
  balances.digests = loadKeyed(part.digests, 'balances.digests', DigestRecord, rejected, (key, d) =>
    d.day === key ? undefined : 'stored under one day but its own day is another',
  );
  if (Array.isArray(part.thresholdChanges)) {
    part.thresholdChanges.forEach((entry: unknown, index: number) => {
      const parsed = ThresholdChange.safeParse(entry);
      if (parsed.success) balances.thresholdChanges.push(parsed.data);
      else
        rejected.push({
          where: `balances.thresholdChanges[${index}]`,
          problem: problemOf(parsed.error),
          value: entry,
        });
    });
  } else if (part.thresholdChanges !== undefined) {
    rejected.push({ where: 'balances.thresholdChanges', problem: 'expected a list', value: part.thresholdChanges });
  }
  return balances;
}

/** The alert trail entry by entry: a damaged entry is set aside, the others kept. */
function loadAlertTrail(raw: unknown, rejected: RejectedRecord[]): StoredAlertTrailEntry[] {
  const kept: StoredAlertTrailEntry[] = [];
  if (raw === undefined) return kept;
  if (!Array.isArray(raw)) {
    rejected.push({ where: 'alertTrail', problem: 'expected a list', value: raw });
    return kept;
  }
  raw.forEach((entry: unknown, index: number) => {
    const parsed = StoredAlertTrailEntry.safeParse(entry);
    if (parsed.success) kept.push(parsed.data);
    else rejected.push({ where: `alertTrail[${index}]`, problem: problemOf(parsed.error), value: entry });
  });
  return kept;
}

/** The kind of container each top-level part of the file is (parts written by later versions may be absent). */
const TOP_LEVEL_PARTS: Readonly<Record<string, 'record' | 'list'>> = {
  swapQuotes: 'record',
  alerts: 'record',
  balances: 'record',
  payouts: 'record',
  invoices: 'record',
  alertTrail: 'list',
  freeze: 'record',
  secondFactor: 'record',
};

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}

/**
 * The file's top level is the bot's: version 1, the quotes present (every file the bot ever wrote has them), and
 * each part the container it must be. Anything else is not a damaged record but a file that cannot be read as a
 * whole: setting a whole part aside would start that part empty (every alert posted again, approvals forgotten).
 */
function checkTopLevel(raw: Record<string, unknown>): void {
  if (raw.version !== 1)
    throw new CorruptStateError(`unknown state version ${String(JSON.stringify(raw.version)).slice(0, 40)}`);
  if (raw.swapQuotes === undefined) throw new CorruptStateError('the file has no swapQuotes part');
  for (const [part, kind] of Object.entries(TOP_LEVEL_PARTS)) {
    const value = raw[part];
    if (value === undefined) continue;
    const ok =
      kind === 'list' ? Array.isArray(value) : typeof value === 'object' && value !== null && !Array.isArray(value);
    if (!ok) throw new CorruptStateError(`its ${part} part is ${kindOf(value)}, not a ${kind}`);
  }
}

/**
 * Whether a damaged record counts toward money: a swap quote or a payout request. Setting one aside would drop it
 * from the daily limit and the requester's 24-hour total, and an `approving` one would never be marked
 * outcome_unknown, so it refuses the start instead (unless a person chose to set it aside).
 */
export function isMoneyRecord(record: Pick<RejectedRecord, 'where'>): boolean {
  return /^(swapQuotes|payouts)(\.|$)/.test(record.where);
}

/**
 * The state file's JSON, record by record: every valid quote and alert record is kept, each damaged one is
 * returned in `rejected` for the store to set aside. A file whose top level is not version-1 state is corrupt.
 */
export function loadBotState(raw: Record<string, unknown>): Loaded<BotState> {
  checkTopLevel(raw);
  const rejected: RejectedRecord[] = [];
  const swapQuotes = loadKeyed(raw.swapQuotes, 'swapQuotes', SwapQuote, rejected, (key, quote) =>
    quote.id === key
      ? undefined
      : `stored under one id but its own id is another (${JSON.stringify(quote.id).slice(0, 60)})`,
  );
  return {
    data: {
      version: 1,
      swapQuotes,
      alerts: loadAlertsState(raw.alerts, rejected),
      balances: loadBalances(raw.balances, rejected),
      payouts: loadKeyed(raw.payouts, 'payouts', PayoutRequest, rejected, (key, request) =>
        request.id === key ? undefined : 'stored under one id but its own id is another',
      ),
      invoices: loadKeyed(raw.invoices, 'invoices', FollowedInvoice, rejected, (key, invoice) =>
        invoice.id === key ? undefined : 'stored under one invoice id but its own id is another',
      ),
      alertTrail: loadAlertTrail(raw.alertTrail, rejected),
      freeze: loadFreeze(raw.freeze, rejected),
      secondFactor: loadSecondFactor(raw.secondFactor, rejected),
      formSubmissions: loadFormSubmissions(raw.formSubmissions, rejected),
    },
    rejected,
  };
}
