import type { App } from '@slack/bolt';
import { alertListeners } from '../features/alerts/listeners.js';
import { formBindings } from '../features/forms/openers.js';
import { freezeListeners } from '../features/freeze/listeners.js';
import { homeOpenedListeners } from '../features/home/opened-listener.js';
import { homeRefreshListeners } from '../features/home/refresh-listener.js';
import type { ListenerBinding } from '../features/listener-kit.js';
import { lookupListeners } from '../features/lookups/listeners.js';
import { payoutListeners } from '../features/payouts/listeners.js';
import { secondFactorListeners } from '../features/second-factor/listeners.js';
import { swapListeners } from '../features/swaps/listeners.js';
import { bindListeners } from './binding.js';
import { treasuryCommandListeners } from './commands/treasury.js';
import type { ListenerDeps } from './deps.js';
import { createEdgeMiddleware, TREASURY_COMMAND } from './edge.js';
import { logContextMiddleware } from './log-context.js';
import { refuseWhileStopping, trackRequests } from './shutdown-gate.js';

/** The slash command the manifest declares. */
export { TREASURY_COMMAND };

/** Every command, action, view and event the app handles: each feature's own bindings, bound next to its handlers. */
export const LISTENER_BINDINGS: readonly ListenerBinding[] = [
  ...treasuryCommandListeners,
  ...lookupListeners,
  ...swapListeners,
  ...alertListeners,
  ...homeRefreshListeners,
  ...payoutListeners,
  ...freezeListeners,
  ...homeOpenedListeners,
  ...secondFactorListeners,
  ...formBindings,
];

/** Registers the middleware, in its order, then every listener binding. */
export function registerListeners(app: App, deps: ListenerDeps): void {
  // First: every line logged for a request (and for the work it starts) says what the request is about.
  app.use(logContextMiddleware());
  // Every request is work in flight until its listeners end: shutdown waits for it (see shutdown-gate.ts).
  app.use(trackRequests(deps.background));
  // Then: listeners below only ever see well-formed commands and clicks on buttons they know, from people of the
  // installing organisation.
  app.use(createEdgeMiddleware(deps.logger, deps.slack, deps.installingOrg));
  // Once shutdown has begun, a request is answered in plain words and starts nothing.
  app.use(refuseWhileStopping(deps.background, deps.logger, deps.slack));
  bindListeners(app, deps, LISTENER_BINDINGS);
}
