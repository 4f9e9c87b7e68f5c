import type { SlackState } from '../../../dev/workspace/slack/state.js';
import { truncate } from '../../../dev/workspace/slack/values.js';

const DEFAULT_WAIT_MS = 5000;
const POLL_MS = 25;

/**
 * Resolves with the predicate's first truthy value, checked on every recorded change and every 25 ms; rejects
 * after `timeoutMs` listing what was recorded, or when the stand-in closes.
 */
export function waitForState<T>(
  state: SlackState,
  predicate: () => T,
  timeoutMs = DEFAULT_WAIT_MS,
  description = 'condition',
): Promise<NonNullable<T>> {
  const { closing } = state;
  return new Promise<NonNullable<T>>((resolve, reject) => {
    let lastError: unknown;
    let done = false;
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      clearInterval(poller);
      stopListening();
      closing.signal.removeEventListener('abort', onClose);
    };
    // A throwing predicate (e.g. an `expect`) just means "not yet"; its last error is shown on timeout.
    function check(): void {
      if (done) return;
      try {
        const value = predicate();
        if (value) {
          finish();
          resolve(value as NonNullable<T>);
        }
      } catch (error) {
        lastError = error;
      }
    }
    const onClose = (): void => {
      finish();
      reject(new Error(`Slack stand-in closed while waiting for ${description}`));
    };
    const timer = setTimeout(() => {
      finish();
      const last = lastError instanceof Error ? `\nlast predicate error: ${lastError.message}` : '';
      reject(
        new Error(`Timed out after ${timeoutMs} ms waiting for ${description}${last}\n${describeRecorded(state)}`),
      );
    }, timeoutMs);
    // Recorded traffic wakes us at once; polling covers predicates about state outside the stand-in.
    const poller = setInterval(check, POLL_MS);
    const stopListening = state.onChange(check);
    closing.signal.addEventListener('abort', onClose);
    if (closing.signal.aborted) onClose();
    else check();
  });
}

/** What the stand-in recorded, for a timeout's message: calls, response_url posts and refusals. */
function describeRecorded(state: SlackState): string {
  const { calls, responseLog, rejections } = state;
  const callLines = calls.map((c) => `  ${c.method} ${truncate(JSON.stringify(c.args), 200)}`);
  const responseLines = [...responseLog].map(
    ([url, posts]) =>
      `  ${url}: ${posts.length} post(s)${posts.map((p) => `\n    ${truncate(JSON.stringify(p.body), 200)}`).join('')}`,
  );
  // A refused message is the usual reason an awaited post never arrives: say why it was refused.
  const rejectionLines = rejections.map(
    (r) => `  ${r.target}: ${r.error}${r.problems.map((p) => `\n    ${p}`).join('')}`,
  );
  return [
    `recorded calls (${calls.length}):`,
    ...(callLines.length > 0 ? callLines : ['  (none)']),
    `response_urls (${responseLog.size}):`,
    ...(responseLines.length > 0 ? responseLines : ['  (none)']),
    ...(rejectionLines.length > 0 ? [`refused as Slack would (${rejections.length}):`, ...rejectionLines] : []),
  ].join('\n');
}
