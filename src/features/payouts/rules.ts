/**
 * A request to create a payout container (`/treasury payout create`): what was asked, who confirmed it, what the
 * payment service answered, and the moves its status may make. Plain data and pure functions: the store runs the
 * changes inside its atomic update of one request, the feature orders the steps, the views show the record.
 *
 * The order matters for exactly-once, as for swaps: `sending` is written BEFORE create-payout is called, so a
 * second click, a second replica or a restart sees that a create may be on its way and never sends another.
 */
import { z } from 'zod';
import { type FreezeRecord, isFrozenAt } from '../freeze/rules.js';
import { AssetSnapshot, AuditEntry, auditEntry } from '../swaps/quote.js';
import { THRESHOLD_TRAIL_RETENTION_MS } from '../thresholds/rules.js';

/** Where a payout request stands. */
export const PAYOUT_REQUEST_STATUSES = [
  'proposed', // the confirm message is shown; nothing sent yet
  'sending', // confirmed; create-payout sent (or about to be), its answer not recorded yet
  'created', // the service answered 2xx: the container exists (its id when the answer named one)
  'refused', // the service answered 4xx: no container was made
  'outcome_unknown', // sent, but no answer (timeout, 5xx, the bot stopped): a person must check
  'cancelled', // the requester pressed Cancel
  'expired', // confirmed too late: nothing was sent
] as const;

/** A request to create a payout container and everything that happened to it. */
export const PayoutRequest = z.object({
  id: z.string(),
  requestedBy: z.string(),
  /** ISO-8601 UTC. */
  requestedAt: z.string(),
  channelId: z.string(),
  asset: AssetSnapshot,
  name: z.string(),
  status: z.enum(PAYOUT_REQUEST_STATUSES),
  confirmedBy: z.string().optional(),
  confirmedAt: z.string().optional(),
  /** When the API's answer names one. */
  payoutId: z.string().optional(),
  /** Other fields of the answer worth showing, as [label, value]. */
  shown: z.array(z.tuple([z.string(), z.string()])).optional(),
  /** Why no container was made, or why its outcome is unknown: plain words. */
  failure: z.string().optional(),
  history: z.array(AuditEntry),
});
/** A request to create a payout container and everything that happened to it. */
export type PayoutRequest = z.infer<typeof PayoutRequest>;

/** A proposal not confirmed within this long expires: the asset and name were shown that long ago. */
export const PAYOUT_PROPOSAL_VALIDITY_MS = 15 * 60_000;

/**
 * A request `sending` for longer than this was left by a process that stopped while it waited for the service (a
 * create times out after 10 s): a later click records its outcome as unknown instead of waiting for ever.
 */
export const PAYOUT_SENDING_STUCK_MS = 2 * 60_000;

/** Requests older than this leave the store (as long as the threshold trail is kept). */
export const PAYOUT_REQUEST_RETENTION_MS = THRESHOLD_TRAIL_RETENTION_MS;

/**
 * The longest payout name the bot sends. The spec names no limit for `name`; 255 keeps a name within what a
 * database column of the usual size takes, and a longer one is refused here, before anything is sent.
 */
export const MAX_PAYOUT_NAME_LENGTH = 255;

/** Why a typed name cannot be used, in plain words, or the name to use (trimmed). */
export function checkPayoutName(typed: string): { ok: true; name: string } | { ok: false; problem: string } {
  const name = typed.trim();
  if (name === '') return { ok: false, problem: 'The payout needs a name, e.g. "November affiliates".' };
  // UTF-16 length (an emoji counts twice): never looser than a service that counts characters either way.
  if (name.length > MAX_PAYOUT_NAME_LENGTH)
    return {
      ok: false,
      problem: `The name is ${name.length} characters long; give at most ${MAX_PAYOUT_NAME_LENGTH}.`,
    };
  return { ok: true, name };
}

/** What a new request is made of. */
export interface NewPayoutRequestInput {
  id: string;
  requestedBy: string;
  requestedAt: Date;
  channelId: string;
  asset: AssetSnapshot;
  name: string;
}

/** A proposed request with its first audit entry. */
export function newPayoutRequest(input: NewPayoutRequestInput): PayoutRequest {
  return {
    id: input.id,
    requestedBy: input.requestedBy,
    requestedAt: input.requestedAt.toISOString(),
    channelId: input.channelId,
    asset: input.asset,
    name: input.name,
    status: 'proposed',
    history: [
      auditEntry(
        input.requestedAt,
        'requested',
        input.requestedBy,
        `${input.asset.symbol}@${input.asset.networkSymbol}`,
      ),
    ],
  };
}

/** Whether the proposal was made more than `maxAgeMs` before `at`. */
function hasProposalLapsed(request: Pick<PayoutRequest, 'requestedAt'>, at: Date, maxAgeMs: number): boolean {
  return at.getTime() - Date.parse(request.requestedAt) > maxAgeMs;
}

/** Whether a `sending` request was confirmed long enough ago that its sender must have stopped. */
export function isSendingStuck(request: Pick<PayoutRequest, 'status' | 'confirmedAt'>, at: Date): boolean {
  if (request.status !== 'sending') return false;
  const since = request.confirmedAt === undefined ? Number.NaN : Date.parse(request.confirmedAt);
  return !(at.getTime() - since <= PAYOUT_SENDING_STUCK_MS);
}

/** Who may press Create payout or Cancel: the person who asked (who is a treasury user: the listener checks). */
export function mayDecidePayoutRequest(request: Pick<PayoutRequest, 'requestedBy'>, userId: string): boolean {
  return request.requestedBy === userId;
}

/**
 * The atomic claim before create-payout (in place): a `proposed` request within `maxAgeMs` becomes `sending`,
 * confirmed by `by`; a lapsed one becomes `expired` (nothing is sent); anything else is left as it is.
 * Says whether the caller may send.
 */
export function claimPayoutSend(request: PayoutRequest, by: string, at: Date, maxAgeMs: number): boolean {
  if (request.status !== 'proposed') return false;
  if (hasProposalLapsed(request, at, maxAgeMs)) {
    request.status = 'expired';
    request.history.push(
      auditEntry(at, 'expired', by, `not confirmed within ${Math.round(maxAgeMs / 60_000)} minutes`),
    );
    return false;
  }
  request.status = 'sending';
  request.confirmedBy = by;
  request.confirmedAt = at.toISOString();
  request.history.push(auditEntry(at, 'confirmed', by));
  return true;
}

/** What came back from the one create-payout call of a request. */
export type PayoutOutcome =
  | { status: 'created'; payoutId?: string | undefined; shown: Array<[string, string]> }
  | { status: 'refused' | 'outcome_unknown'; failure: string };

/** Records the outcome of a `sending` request (in place); says whether it did (only `sending` takes one). */
export function applyPayoutOutcome(request: PayoutRequest, outcome: PayoutOutcome, at: Date): boolean {
  if (request.status !== 'sending') return false;
  request.status = outcome.status;
  if (outcome.status === 'created') {
    if (outcome.payoutId !== undefined) request.payoutId = outcome.payoutId;
    if (outcome.shown.length > 0) request.shown = outcome.shown.map(([label, value]) => [label, value]);
    request.history.push(auditEntry(at, 'created', undefined, outcome.payoutId ?? 'no id in the answer'));
  } else {
    request.failure = outcome.failure;
    request.history.push(auditEntry(at, outcome.status, undefined, outcome.failure));
  }
  return true;
}

/** Cancels a `proposed` request (in place); says whether it did. */
export function cancelPayoutRequest(request: PayoutRequest, by: string, at: Date): boolean {
  if (request.status !== 'proposed') return false;
  request.status = 'cancelled';
  request.history.push(auditEntry(at, 'cancelled', by));
  return true;
}

/**
 * What a request's status means at `at` for someone reading it later (the audit export): a proposal nobody confirmed
 * in time is expired, and a send whose answer was never recorded is unknown, even before anyone clicks again and
 * the store records it so.
 */
export function effectivePayoutStatus(request: PayoutRequest, at: Date): string {
  if (request.status === 'proposed' && hasProposalLapsed(request, at, PAYOUT_PROPOSAL_VALIDITY_MS))
    return 'expired (never confirmed)';
  if (isSendingStuck(request, at)) return 'outcome_unknown (no answer recorded)';
  return request.status;
}

/**
 * The freeze that refuses confirming this request at `at`, or undefined: only a `proposed` request is refused (any
 * other is answered as it stands), and only while the freeze is in force. Run inside the claim's atomic change.
 */
export function frozenForClaim(
  request: Pick<PayoutRequest, 'status'>,
  freeze: FreezeRecord | undefined,
  at: Date,
): FreezeRecord | undefined {
  return request.status === 'proposed' && freeze && isFrozenAt(freeze, at) ? freeze : undefined;
}
