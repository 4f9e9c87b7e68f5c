/**
 * The audit export's rows of each kind of record, as pure functions: a swap quote's history, an alert trail
 * entry, a threshold change, a payout request's history, each event one AuditRow. Amounts are exact (decimal strings
 * from base units with BigInt, cents for USD); a value a record holds that cannot be read as an amount is left to
 * the CSV record to report (see auditRecord).
 */

import { centsToUsd, fromBaseUnits } from '../../kernel/money.js';
import type { AlertTrailEntry } from '../alerts/trail.js';
import type { FreezeEvent } from '../freeze/rules.js';
import { effectivePayoutStatus, type PayoutRequest } from '../payouts/rules.js';
import { MAX_WRONG_CODES, type SecondFactorEvent } from '../second-factor/rules.js';
import type { PolicySnapshot, StoredUsdValue } from '../swaps/policy.js';
import type { SwapQuote } from '../swaps/quote.js';
import type { ThresholdChange } from '../thresholds/rules.js';
import type { AuditRow } from './csv-rules.js';

/** Milliseconds of an ISO time, or NaN. */
function timeOf(iso: string): number {
  return Date.parse(iso);
}

/** Token units of base units; the raw value when it is not a base-unit amount (auditRecord then reports it). */
function tokenUnits(units: string, decimals: number): string {
  try {
    return fromBaseUnits(/^-\d+$/.test(units) ? BigInt(units) : units, decimals);
  } catch {
    return units;
  }
}

function cents(text: string): string {
  try {
    return centsToUsd(BigInt(text));
  } catch {
    return text;
  }
}

function usdOf(value: StoredUsdValue | undefined): string | undefined {
  return value !== undefined && 'cents' in value ? cents(value.cents) : undefined;
}

/** The approval policy fixed on a quote, in one line of plain words. */
export function describePolicySnapshot(policy: PolicySnapshot | undefined): string {
  if (policy === undefined)
    return 'one approval from the approvers configured (made before the policy was recorded on each quote)';
  const approvers = [...policy.approvers.userIds, ...policy.approvers.groupIds];
  return [
    `needs ${policy.needed} approval${policy.needed === 1 ? '' : 's'} from distinct approvers (tier from $${cents(policy.tier.minCents)})`,
    ...(policy.failClosed ? [`value unknown: ${policy.failClosed}`] : []),
    ...(policy.window
      ? [
          'unknown' in policy.window
            ? `with the requester's ${policy.window.count} other swaps of the last 24 hours: total unknown`
            : `with the requester's $${cents(policy.window.priorCents)} in ${policy.window.count} other swaps of the last 24 hours: total $${cents(policy.window.totalCents)}`,
        ]
      : []),
    `approvers: ${approvers.length > 0 ? approvers.join(' ') : 'nobody'}`,
    `self-approval ${policy.allowSelfApproval ? 'allowed' : 'not allowed'}`,
    ...(policy.maxUsdCents !== undefined ? [`maximum $${cents(policy.maxUsdCents)}`] : []),
    ...(policy.dailyLimitUsdCents !== undefined ? [`daily limit $${cents(policy.dailyLimitUsdCents)}`] : []),
    `tiers ${policy.tiers.map((tier) => `$${cents(tier.minCents)}:${tier.approvals}`).join(',')}`,
    `fixed ${policy.fixedAt}`,
  ].join('; ');
}

/** The event names of a quote's history as the export writes them (the request itself is `requested`). */
function quoteEvent(recorded: string): string {
  return recorded === 'quoted' ? 'requested' : recorded;
}

/** Every event of a quote's history, one row each (the quote's amounts, policy and status on every row). */
export function quoteRows(quote: SwapQuote): AuditRow[] {
  const asset = `${quote.from.symbol}@${quote.from.networkSymbol}`;
  const toAsset = `${quote.to.symbol}@${quote.to.networkSymbol}`;
  const estimated = tokenUnits(quote.estimatedAmount, quote.to.decimals);
  const received = quote.amountTo !== undefined ? tokenUnits(quote.amountTo, quote.to.decimals) : undefined;
  const shared = {
    category: 'swap_quote' as const,
    subjectId: quote.id,
    asset,
    amount: tokenUnits(quote.amountFrom, quote.from.decimals),
    amountUnits: quote.amountFrom,
    usdValue: usdOf(quote.valueUsd),
    toAsset,
    policy: describePolicySnapshot(quote.policy),
    status: quote.swapStatus ? `${quote.status} (swap ${quote.swapStatus})` : quote.status,
    swapId: quote.swapId,
  };
  return quote.history.map((entry) => {
    const event = quoteEvent(entry.event);
    const valueUnknown =
      event === 'requested' && quote.valueUsd !== undefined && 'unknown' in quote.valueUsd
        ? `USD value unknown: ${quote.valueUsd.reason}`
        : undefined;
    return {
      ...shared,
      at: timeOf(entry.at),
      event,
      actor: entry.by,
      // What the swap received once the service reported it, on the swap's progress events; the estimate otherwise.
      toAmount: event.startsWith('swap_') && event !== 'swap_created' && received !== undefined ? received : estimated,
      detail: [entry.detail, valueUnknown].filter((part) => part !== undefined).join('; '),
      ...(entry.secondFactor ? { secondFactor: true } : {}),
    };
  });
}

/** The state an alert is in after an event of its trail. */
const ALERT_STATE_AFTER: Record<AlertTrailEntry['event'], string> = {
  posted: 'open',
  acknowledged: 'acknowledged',
  snoozed: 'snoozed',
  resolved_by_person: 'resolved',
  resolved_by_facts: 'resolved',
  retired: 'resolved',
};

/** One row of an alert's life. */
export function alertRow(entry: AlertTrailEntry): AuditRow {
  const detail =
    entry.event === 'posted'
      ? `${entry.kind}: ${entry.about ?? ''}`
      : entry.event === 'snoozed'
        ? `until ${entry.until ?? 'unknown'}`
        : entry.event === 'resolved_by_person'
          ? (entry.note ?? '')
          : (entry.reason ?? '');
  return {
    at: timeOf(entry.at),
    category: 'alert',
    event: entry.event,
    subjectId: entry.alertKey,
    actor: entry.by,
    asset: entry.asset,
    amount: entry.amount,
    amountUnits: entry.amountUnits,
    usdValue: entry.usd,
    status: ALERT_STATE_AFTER[entry.event],
    detail,
  };
}

/** A threshold in words: `below 5000 USDT` or `below $5000.00`. */
function level(threshold: NonNullable<ThresholdChange['threshold']>): string {
  return threshold.measure === 'usd'
    ? `below $${cents(threshold.below)}`
    : `below ${tokenUnits(threshold.below, threshold.decimals)} ${threshold.symbol}`;
}

/** One row of the threshold trail: who set or removed which, the new level and the one it replaced. */
/** One step of the freeze's trail (features/freeze/rules.ts): who, and the reason, the end or the vote count. */
export function freezeRow(entry: FreezeEvent): AuditRow {
  const detail =
    entry.event === 'frozen'
      ? `${entry.reason ?? ''}${entry.until ? ` (until ${entry.until})` : ''}`
      : entry.votes !== undefined
        ? `unfreeze vote ${entry.votes} of ${entry.quorum ?? '?'}`
        : entry.event === 'expired'
          ? 'its --for ran out'
          : undefined;
  return {
    at: timeOf(entry.at),
    category: 'freeze',
    event: entry.event,
    // One freeze at a time: the subject is the freeze itself.
    subjectId: 'freeze',
    actor: entry.by,
    detail,
  };
}

export function thresholdRow(change: ThresholdChange): AuditRow {
  const current = change.threshold;
  const shown = current ?? change.previous;
  const was = change.previous ? ` (was ${level(change.previous)})` : '';
  return {
    at: timeOf(change.at),
    category: 'threshold',
    event: change.action,
    subjectId: change.assetId,
    actor: change.by,
    asset: shown ? `${shown.symbol}@${shown.network}` : undefined,
    ...(current?.measure === 'units'
      ? { amount: tokenUnits(current.below, current.decimals), amountUnits: current.below }
      : {}),
    ...(current?.measure === 'usd' ? { usdValue: cents(current.below) } : {}),
    detail: current ? `${level(current)}${was}` : `removed${was}`,
  };
}

/**
 * Every event of a payout request's history, one row each (the container's id and the request's status at `now` on
 * each: a lapsed proposal or a send with no answer recorded reads as such, see effectivePayoutStatus).
 */
export function payoutRows(request: PayoutRequest, now: Date): AuditRow[] {
  const status = effectivePayoutStatus(request, now);
  return request.history.map((entry) => ({
    at: timeOf(entry.at),
    category: 'payout',
    event: entry.event,
    subjectId: request.id,
    actor: entry.by,
    asset: `${request.asset.symbol}@${request.asset.networkSymbol}`,
    status,
    payoutId: request.payoutId,
    detail: entry.event === 'requested' ? `name: ${request.name}` : entry.detail,
  }));
}

/**
 * One step of a person's second factor (features/second-factor/rules.ts): whose (`subject_id`), who acted (the
 * person, or the admin who reset them or confirmed their new enrolment) and, for wrong codes and locks, the count
 * and the lock's end. Never a secret
 * or a code: the trail holds neither.
 */
export function secondFactorRow(entry: SecondFactorEvent): AuditRow {
  const detail =
    entry.event === 'wrong_code'
      ? `${entry.reason === 'replayed' ? 'replayed' : 'wrong'} code ${entry.wrongCodes ?? '?'} of ${MAX_WRONG_CODES}`
      : entry.event === 'locked'
        ? `approvals locked until ${entry.until ?? '?'}`
        : entry.event === 'reset'
          ? `enrolment of ${entry.userId} reset`
          : entry.event === 'admin_confirmed'
            ? `enrolment of ${entry.userId} confirmed by another admin`
            : entry.event === 'enrolment_lapsed'
              ? 'enrolment lapsed without a code (10 minutes)'
              : undefined;
  return {
    at: timeOf(entry.at),
    category: 'second_factor',
    event: entry.event,
    subjectId: entry.userId,
    actor: entry.by ?? entry.userId,
    detail,
  };
}
