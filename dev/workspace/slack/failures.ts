import type { ServerResponse } from 'node:http';
import { sendJson, sleep } from './http.js';
import type { SlackState } from './state.js';
import type { InjectedFailure } from './types.js';

/**
 * Makes the next `times` calls of `method` fail (`'response_url'` and `'upload_url'` target those posts); with
 * `channel` only calls for that channel, with `textIncludes` only calls whose text contains it.
 */
export function queueFailure(
  state: SlackState,
  method: string,
  failure: InjectedFailure,
  times = 1,
  only?: { channel?: string; textIncludes?: string },
): void {
  const queue = state.failures.get(method) ?? [];
  queue.push({
    failure,
    remaining: times,
    ...(only?.channel !== undefined ? { channel: only.channel } : {}),
    ...(only?.textIncludes !== undefined ? { textIncludes: only.textIncludes } : {}),
  });
  state.failures.set(method, queue);
}

/** The first failure queued for this call: one for any channel, or one for the channel the call names. */
export function takeFailure(
  state: SlackState,
  method: string,
  channel?: string,
  text?: string,
): InjectedFailure | undefined {
  const queue = state.failures.get(method);
  const index =
    queue?.findIndex(
      (f) =>
        (f.channel === undefined || f.channel === channel) &&
        (f.textIncludes === undefined || (text ?? '').includes(f.textIncludes)),
    ) ?? -1;
  const next = queue?.[index];
  if (queue === undefined || next === undefined) return undefined;
  next.remaining -= 1;
  if (next.remaining <= 0) queue.splice(index, 1);
  return next.failure;
}

/**
 * Answers with a failure that comes instead of the call's work (an error, an HTTP status, a reset), or waits out a
 * delay. Returns true when the request should go on to be answered normally (after the delay).
 */
export async function applyFailure(state: SlackState, failure: InjectedFailure, res: ServerResponse): Promise<boolean> {
  if ('reset' in failure) {
    res.socket?.destroy();
    return false;
  }
  if ('delayMs' in failure) {
    await sleep(failure.delayMs, state.closing.signal);
    return !res.destroyed;
  }
  if ('error' in failure && !('status' in failure)) {
    sendJson(res, 200, { ok: false, error: failure.error });
    return false;
  }
  if (!('status' in failure)) return true;
  const headers: Record<string, string> = {};
  const retryAfter = failure.retryAfter ?? (failure.status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  const error = failure.error ?? (failure.status === 429 ? 'ratelimited' : 'internal_error');
  sendJson(res, failure.status, { ok: false, error }, headers);
  return false;
}
