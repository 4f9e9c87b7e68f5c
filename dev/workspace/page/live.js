// @ts-check
/* Live updates: the server's event stream says when the timeline changed (Server-Sent Events). */

/**
 * @param {{
 *   isCurrent(version: unknown): boolean,
 *   refresh(): void,
 *   showConnection(text: string | null): void,
 * }} page what is on screen (`isCurrent`: the page already shows this version), how to refetch, where to say
 *   that the stream is down
 */
export function watchTimeline(page) {
  if (typeof EventSource !== 'function') return;
  const source = new EventSource('/api/events');
  let wasDown = false;
  source.addEventListener('change', (event) => {
    let version = null;
    try {
      version = JSON.parse(event.data)?.version ?? null;
    } catch {
      /* refetch anyway */
    }
    if (version !== null && page.isCurrent(version)) return;
    page.refresh();
  });
  source.addEventListener('open', () => {
    page.showConnection(null);
    if (wasDown) page.refresh();
    wasDown = false;
  });
  source.addEventListener('error', () => {
    wasDown = true;
    page.showConnection(source.readyState === EventSource.CLOSED ? 'Disconnected — reload the page' : 'Reconnecting…');
  });
}
