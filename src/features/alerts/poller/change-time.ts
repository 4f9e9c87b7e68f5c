/**
 * Where an alert's latency starts: the time the payment API gives for the change, when it gives one and it is
 * believable, else the poll's first sight of the change (`queuedAt`). Pure.
 *
 * What the API gives (docs/payments-api.md): a gas row has `updatedAt`, the time of its last change (the change
 * the poll saw, or an earlier one: never later than what is alerted). Withdrawals and payout tasks have only
 * `createdAt`. For a row first seen already failed and created since the previous read of its source, the failure
 * lies between its creation and this read, so createdAt is at most one poll interval early. A row created before
 * that read could have been pending unseen for longer (a task is found pending only by the pending list's reads,
 * every 10 minutes), and a row followed while pending has its createdAt before its whole pending time: there the
 * API gives no time of the change, and the first sight starts the latency.
 */

/** How far the API's clock may run ahead of ours (or a whole-second time lag the instant) and still be believed. */
export const API_CLOCK_SKEW_MS = 10_000;

/**
 * The API's time of a change (ISO) to start the alert's latency from, or undefined to start it at the poll's first
 * sight (`seenAt`). Not believed: a time past the first sight by more than API_CLOCK_SKEW_MS (the row cannot have
 * changed after the poll saw the change: the time is not the change's, or the clocks disagree too much); a time
 * before the row's own createdAt; a time before `notBefore` (less the skew), the moment from which the time is
 * known to be close to the change: the previous read of the source for a createdAt, the poller's first poll for an
 * updatedAt (the first run's lookback finds old failures: a latency from them would count the time before the bot
 * ran). Without `notBefore` (the source's first poll) the first sight starts it.
 */
export function changeTimeOf(
  apiTime: string | undefined,
  createdAt: string,
  seenAt: Date,
  notBefore: string | undefined,
): string | undefined {
  if (apiTime === undefined || notBefore === undefined) return undefined;
  const at = Date.parse(apiTime);
  if (!Number.isFinite(at)) return undefined;
  if (at > seenAt.getTime() + API_CLOCK_SKEW_MS) return undefined;
  if (at < Date.parse(createdAt)) return undefined;
  if (!(at >= Date.parse(notBefore) - API_CLOCK_SKEW_MS)) return undefined;
  return apiTime;
}

/**
 * From when the API time of a failure of this kind is believed (see changeTimeOf): a gas row's updatedAt is the time
 * of its change whenever the poller watched the source; a withdrawal's or task's createdAt only since the source's
 * previous successful read.
 */
export function believedSince(
  kind: 'withdrawal' | 'task' | 'gas',
  source: { initializedAt?: string | undefined; lastSuccessAt?: string | undefined },
): string | undefined {
  return kind === 'gas' ? source.initializedAt : source.lastSuccessAt;
}
