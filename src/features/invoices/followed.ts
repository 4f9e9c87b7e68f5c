/**
 * Invoices that report back: an invoice made with `/treasury invoice …` is followed until it leaves
 * `pending` or passes `expiredAt`; its creator then gets one direct message and every copy shared in a channel is
 * rewritten. The records both stores keep, and the pure rules: when each invoice is checked (by age, as the alert
 * poller rechecks pending rows), what a check means, the bound, and the notice's claim. Times are ISO strings from
 * Date.toISOString(), so they also compare as strings.
 */
import { z } from 'zod';
import { compareText } from '../../kernel/compare.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The follower's fixed rules (documented in docs/features/invoices.md, "Invoices that report back"). */
export const INVOICE_FOLLOW = {
  /**
   * How often an invoice still pending is checked (one `invoice-info` request each), by its age (now less when the
   * bot made it), youngest band first. The API caps an invoice's payment window at 24 hours, so the last band holds
   * only invoices whose reads keep failing.
   */
  bands: [
    { youngerThanMs: HOUR, everyMs: 2 * MINUTE },
    { youngerThanMs: DAY, everyMs: 10 * MINUTE },
    { youngerThanMs: Number.POSITIVE_INFINITY, everyMs: HOUR },
  ],
  /**
   * One check this long after `expiredAt`, whatever the band: a payment in the last seconds, or a clock a little
   * behind the API's, is seen as paid rather than "expired unpaid".
   */
  afterExpiryMs: MINUTE,
  /**
   * Checks one poll makes at most, the most overdue first. With more due than that (over about 25 invoices younger
   * than an hour, or 50 younger than a day, at one poll a minute), each waits its turn and its interval stretches.
   */
  checksPerPoll: 5,
  /** An invoice whose reads still fail this long after `expiredAt` is no longer followed (its creator is told). */
  giveUpAfterExpiryMs: DAY,
  /**
   * A direct message whose answer was lost is believed absent only once its first attempt is this old (Slack may
   * still be carrying it out); the same margin as the alert poller's.
   */
  uncertainSettleMs: 2 * MINUTE,
  /** When the DM cannot be looked for (Slack fails the read) for this long, it counts as unconfirmed: never posted twice. */
  lookupGiveUpMs: 15 * MINUTE,
  /** INVOICE_FOLLOW_MAX when unset: open invoices followed at most. */
  defaultMax: 100,
} as const;

/** The metadata event type of every direct message about an invoice; its payload's `key` is noticeKey(id). */
export const INVOICE_EVENT_TYPE = 'treasury_invoice';

/** The metadata key of the one direct message about an invoice (there is one outcome per invoice). */
export function noticeKey(invoiceId: string): string {
  return `invoice:${invoiceId}`;
}

/**
 * The invoice as the API last gave it (Invoice, 2.4): status, amounts, title, link, currency, expiry. Kept so that
 * the direct message and the rewritten copies show exactly what the API sent, without another request.
 */
export const InvoiceSnapshot = z.object({
  id: z.string().min(1),
  status: z.string(),
  usdAmount: z.string(),
  cryptoAmount: z.string().nullable(),
  crypto: z
    .object({
      id: z.string(),
      title: z.string(),
      symbol: z.string(),
      contractAddress: z.string().nullable(),
      decimals: z.number().int().min(0).max(36),
      logoURI: z.string().nullable(),
    })
    .nullable(),
  network: z
    .object({
      id: z.string(),
      title: z.string(),
      symbol: z.string(),
      chainId: z.string().nullable(),
      networkType: z.string().nullable(),
    })
    .nullable(),
  paymentPageLink: z.string(),
  productTitle: z.string(),
  extraData: z.string().nullable(),
  address: z.string().nullable(),
  /** ISO. */
  expiredAt: z.string(),
});
export type InvoiceSnapshot = z.infer<typeof InvoiceSnapshot>;

/** A copy of the invoice someone shared in a channel ("Share in channel"): rewritten when the invoice changes. */
export const SharedCopy = z.object({
  channel: z.string().min(1),
  ts: z.string().min(1),
  /** Who shared it (a user id): the copy keeps saying so. */
  sharedBy: z.string().min(1),
  sharedAt: z.string(),
});
export type SharedCopy = z.infer<typeof SharedCopy>;

/**
 * How following ended: the status changed (`changed`), `expiredAt` passed while still pending (`expired`: expired
 * unpaid), or the bot stopped following it (`dropped`: over the bound, or unreadable long after its expiry).
 */
export const InvoiceOutcome = z.object({
  kind: z.enum(['changed', 'expired', 'dropped']),
  at: z.string(),
  reason: z.enum(['bound', 'unreadable']).optional(),
});
export type InvoiceOutcome = z.infer<typeof InvoiceOutcome>;

/**
 * The one direct message to the creator: `owed` once the outcome is committed; `sending` is written BEFORE the post
 * (the claim), with the DM channel and the first attempt's time, so a lost answer or a crash is looked for in the DM
 * (by its metadata key) before anything is posted again; `sent` once Slack accepted it; `failed` when Slack refused
 * it for good (no such person, a missing scope); `unconfirmed` when its outcome cannot be known (the DM cannot be
 * read): never posted twice, said in the log.
 */
const InvoiceNotice = z.object({
  state: z.enum(['owed', 'sending', 'sent', 'failed', 'unconfirmed']),
  channel: z.string().optional(),
  /** When the post now under way was first attempted (our clock). */
  since: z.string().optional(),
  ts: z.string().optional(),
  at: z.string().optional(),
  error: z.string().optional(),
});

/** One invoice followed (open) or whose outcome Slack still has to hear (its notice, its shared copies). */
export const FollowedInvoice = z.object({
  id: z.string().min(1),
  /** The person who made it with `/treasury invoice …` (a user id): the direct message goes to them. */
  createdBy: z.string().min(1),
  /** When the bot made it (our clock): its age picks the check interval. */
  createdAt: z.string(),
  /** The API's `expiredAt`, ISO. */
  expiredAt: z.string(),
  /** The status last seen, as the API sent it. */
  status: z.string(),
  invoice: InvoiceSnapshot,
  /** Copies shared in channels that still show an older state (a copy leaves once rewritten, or gone). */
  shared: z.array(SharedCopy),
  nextCheckAt: z.string(),
  lastCheckedAt: z.string().optional(),
  /** Why the last check failed (the API did not answer), until a check succeeds. */
  lastError: z.string().optional(),
  outcome: InvoiceOutcome.optional(),
  notice: InvoiceNotice.optional(),
});
export type FollowedInvoice = z.infer<typeof FollowedInvoice>;

const iso = (ms: number) => new Date(ms).toISOString();
const msOf = (text: string) => Date.parse(text);

/** The check interval of an invoice of this age (INVOICE_FOLLOW.bands). */
function checkIntervalMs(ageMs: number): number {
  const band = INVOICE_FOLLOW.bands.find((b) => ageMs < b.youngerThanMs) ?? INVOICE_FOLLOW.bands.at(-1)!;
  return band.everyMs;
}

/**
 * When an invoice checked (or made) at `nowMs` is checked next: after its band's interval, but once right after
 * `expiredAt` (plus the margin) if that comes first. Past that point, its band's interval again (a read failed).
 */
function nextCheckMs(record: Pick<FollowedInvoice, 'createdAt' | 'expiredAt'>, nowMs: number): number {
  const regular = nowMs + checkIntervalMs(nowMs - msOf(record.createdAt));
  const afterExpiry = msOf(record.expiredAt) + INVOICE_FOLLOW.afterExpiryMs;
  return afterExpiry > nowMs ? Math.min(regular, afterExpiry) : regular;
}

/** Whether the invoice is still followed (no outcome yet). */
export function isOpen(record: FollowedInvoice): boolean {
  return record.outcome === undefined;
}

/** Nothing left to do: the outcome is known, the creator was told (or cannot be), and no copy is left to rewrite. */
export function isFinished(record: FollowedInvoice): boolean {
  const notice = record.notice?.state;
  return (
    record.outcome !== undefined &&
    (notice === 'sent' || notice === 'failed' || notice === 'unconfirmed') &&
    record.shared.length === 0
  );
}

/** A new invoice to follow, made by `createdBy` at `now`: first checked after its band's interval (or at expiry). */
export function newFollowedInvoice(invoice: InvoiceSnapshot, createdBy: string, now: Date): FollowedInvoice {
  const base = { createdAt: now.toISOString(), expiredAt: invoice.expiredAt };
  return {
    id: invoice.id,
    createdBy,
    ...base,
    status: invoice.status,
    invoice,
    shared: [],
    nextCheckAt: iso(nextCheckMs(base, now.getTime())),
  };
}

/** The open invoices due for a check at `now`, the most overdue first, at most `limit`. */
export function dueInvoices(records: readonly FollowedInvoice[], now: Date, limit: number): FollowedInvoice[] {
  const at = now.toISOString();
  return records
    .filter((record) => isOpen(record) && record.nextCheckAt <= at)
    .sort((a, b) => compareText(a.nextCheckAt, b.nextCheckAt) || compareText(a.id, b.id))
    .slice(0, limit);
}

/**
 * The open invoices to drop so that at most `max` stay open: the oldest (by when the bot made them) first.
 * `keep` (the invoice being added) is never among them.
 */
export function overBound(records: readonly FollowedInvoice[], max: number, keep?: string): FollowedInvoice[] {
  const open = records
    .filter((record) => isOpen(record) && record.id !== keep)
    .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id));
  const excess = open.length + (keep === undefined ? 0 : 1) - max;
  return excess > 0 ? open.slice(0, excess) : [];
}

/** Following ends: the outcome is committed and the direct message is owed. */
export function settle(
  record: FollowedInvoice,
  kind: InvoiceOutcome['kind'],
  now: Date,
  reason?: InvoiceOutcome['reason'],
): void {
  if (record.outcome) return;
  record.outcome = { kind, at: now.toISOString(), ...(reason ? { reason } : {}) };
  record.notice = { state: 'owed' };
}

/**
 * What a successful check read: the invoice as the API sent it. A status other than `pending` (whatever its
 * value) ends following as `changed`; still pending a minute (afterExpiryMs) after `expiredAt` (the API's), as `expired`; otherwise the
 * next check is planned. Answers what it decided. A record already settled is left as it is.
 */
export function recordCheck(
  record: FollowedInvoice,
  invoice: InvoiceSnapshot,
  now: Date,
): 'open' | 'changed' | 'expired' | 'settled' {
  if (record.outcome) return 'settled';
  record.invoice = invoice;
  record.status = invoice.status;
  record.expiredAt = invoice.expiredAt;
  record.lastCheckedAt = now.toISOString();
  delete record.lastError;
  if (invoice.status !== 'pending') {
    settle(record, 'changed', now);
    return 'changed';
  }
  // Still pending: expired only once the margin after `expiredAt` has passed too (a payment in its last seconds, or
  // our clock a little ahead of the API's, is seen as paid rather than told as "expired unpaid" for good).
  if (now.getTime() >= msOf(invoice.expiredAt) + INVOICE_FOLLOW.afterExpiryMs) {
    settle(record, 'expired', now);
    return 'expired';
  }
  record.nextCheckAt = iso(nextCheckMs(record, now.getTime()));
  return 'open';
}

/**
 * A check that failed (the API did not answer, or not as expected): tried again at the band's interval (right after
 * a young band's when the invoice has expired, so the expiry is told soon). Long after its expiry, following ends
 * as `dropped` (`unreadable`): its creator is told to look it up. A record already settled is left as it is.
 */
export function recordFailedCheck(record: FollowedInvoice, error: string, now: Date): 'open' | 'dropped' | 'settled' {
  if (record.outcome) return 'settled';
  const nowMs = now.getTime();
  record.lastCheckedAt = now.toISOString();
  record.lastError = error.slice(0, 300);
  if (nowMs >= msOf(record.expiredAt) + INVOICE_FOLLOW.giveUpAfterExpiryMs) {
    settle(record, 'dropped', now, 'unreadable');
    return 'dropped';
  }
  const expired = nowMs >= msOf(record.expiredAt);
  record.nextCheckAt = iso(expired ? nowMs + INVOICE_FOLLOW.bands[0].everyMs : nextCheckMs(record, nowMs));
  return 'open';
}

/** A copy shared in a channel is added (once per message). */
export function addCopy(record: FollowedInvoice, copy: SharedCopy): boolean {
  if (record.shared.some((c) => c.channel === copy.channel && c.ts === copy.ts)) return false;
  record.shared.push(copy);
  return true;
}

/** A copy leaves the list: rewritten, deleted in Slack, or refused for good. */
export function removeCopy(record: FollowedInvoice, channel: string, ts: string): void {
  record.shared = record.shared.filter((c) => !(c.channel === channel && c.ts === ts));
}

/**
 * The claim before the direct message is posted: only an `owed` notice is claimed (so one post at a time, across
 * replicas). Written with the DM channel and the attempt's time, BEFORE the post.
 */
export function claimNotice(record: FollowedInvoice, channel: string, now: Date): boolean {
  if (record.notice?.state !== 'owed') return false;
  record.notice = { state: 'sending', channel, since: now.toISOString() };
  return true;
}

/** Slack accepted the direct message (or it was found in the DM after a lost answer). */
export function noticeSent(record: FollowedInvoice, ts: string, now: Date): void {
  if (!record.notice) return;
  record.notice = { ...record.notice, state: 'sent', ts, at: now.toISOString() };
}

/** Slack certainly did not post it (a refusal that may pass, a rate limit): owed again, for the next poll. */
export function releaseNotice(record: FollowedInvoice): void {
  if (record.notice?.state !== 'sending') return;
  record.notice = { state: 'owed', ...(record.notice.channel ? { channel: record.notice.channel } : {}) };
}

/** The direct message ends without a post Slack confirmed: `failed` (refused for good) or `unconfirmed` (unknown). */
export function endNotice(record: FollowedInvoice, state: 'failed' | 'unconfirmed', error: string, now: Date): void {
  if (!record.notice) return;
  record.notice = { ...record.notice, state, error: error.slice(0, 300), at: now.toISOString() };
}

/** What a lookup for a direct message whose answer was lost found. */
export type NoticeLookup = { ts: string } | { absent: true } | { unreadable: string } | { failed: string };

/**
 * What to do with a direct message that may have been posted, from the lookup and the first attempt's age: record
 * the message found; post again once Slack has had time to finish the first attempt and it is not there; wait; or,
 * when the DM cannot be read (or the lookup keeps failing), give up as unconfirmed: never a second message. Pure.
 */
export function noticeLookupDecision(
  found: NoticeLookup,
  attemptAgeMs: number,
): { record: string } | 'post_again' | 'wait' | 'unconfirmed' {
  if ('ts' in found) return { record: found.ts };
  if ('unreadable' in found) return 'unconfirmed';
  if ('absent' in found) return attemptAgeMs >= INVOICE_FOLLOW.uncertainSettleMs ? 'post_again' : 'wait';
  return attemptAgeMs >= INVOICE_FOLLOW.lookupGiveUpMs ? 'unconfirmed' : 'wait';
}
