/**
 * Where an alert's latency starts: the time the payment API gives for the change, when it gives one and it is
 * believable, else the poll's first sight of the change (`queuedAt`). Pure.
 *
 * What the API gives (docs/payments-api.md): a gas row has `updatedAt`, the time of its last change (a change the
 * poll saw, or an earlier one: never later than what is alerted). Withdrawals and payout tasks have only
 * `createdAt`: for a row first seen already failed, the failure lies between its creation and the poll that saw
 * it (a row pending for longer would have been seen pending), so createdAt is the closest time the API gives; for
 * a row followed while pending, createdAt is long before the change (by the whole pending time), so there is no
 * API time and the first sight starts it.
 */

/** How far ahead of our clock the API's clock may run and its time still be believed (clocks disagree a little). */
export const API_CLOCK_SKEW_MS = 10_000;

/**
 * The API's time of a change (ISO) to start the alert's latency from, or undefined to start it at the poll's first
 * sight (`seenAt`). Not believed: a time past the first sight by more than API_CLOCK_SKEW_MS (the row cannot have
 * changed after the poll saw the change: the time is not the change's, or the clocks disagree too much); a time
 * before the row's own createdAt; a time before the poller watched the source (`watchedSince`, its first poll):
 * the first run's lookback finds old failures, and a latency from them would count the time before the bot ran.
 */
export function changeTimeOf(
  apiTime: string | undefined,
  createdAt: string,
  seenAt: Date,
  watchedSince: string | undefined,
): string | undefined {
  if (apiTime === undefined) return undefined;
  const at = Date.parse(apiTime);
  if (!Number.isFinite(at)) return undefined;
  if (at > seenAt.getTime() + API_CLOCK_SKEW_MS) return undefined;
  if (at < Date.parse(createdAt)) return undefined;
  if (at < (watchedSince === undefined ? seenAt.getTime() : Date.parse(watchedSince))) return undefined;
  return apiTime;
}
