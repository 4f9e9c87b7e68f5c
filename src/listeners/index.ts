import type { App } from '@slack/bolt';
import { alertListeners } from '../features/alerts/listeners.js';
import { formBindings } from '../features/forms/openers.js';
import { freezeListeners } from '../features/freeze/listeners.js';
import { homeOpenedListeners } from '../features/home/opened-listener.js';
import { homeRefreshListeners } from '../features/home/refresh-listener.js';
import { lookupListeners } from '../features/lookups/listeners.js';
import { payoutListeners } from '../features/payouts/listeners.js';
import { secondFactorListeners } from '../features/second-factor/listeners.js';
import { swapListeners } from '../features/swaps/listeners.js';
import type { ListenerBinding } from '../slack/listener-kit.js';
import { createDispatcher } from './binding.js';
import { treasuryCommandListeners } from './commands/treasury.js';
import type { ListenerDeps } from './deps.js';
import { createEdgeGate, TREASURY_COMMAND } from './edge.js';
import { logContextGate } from './log-context.js';
import { type RequestGate, requestPipeline } from './pipeline.js';
import { refuseWhileStopping, trackRequests } from './shutdown-gate.js';

/** The slash command the manifest declares. */
export { TREASURY_COMMAND };

/** Every command, action, view and event the app handles: each feature's own bindings, bound next to its handlers. */
export const LISTENER_BINDINGS: readonly ListenerBinding<ListenerDeps>[] = [
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

/** The gates every request passes, in order, before its handler. */
export function requestGates(deps: ListenerDeps): RequestGate[] {
  return [
    // First: every line logged for a request (and for the work it starts) says what the request is about.
    logContextGate(),
    // Every request is work in flight until its handler ends: shutdown waits for it (see shutdown-gate.ts).
    trackRequests(deps.background),
    // Then: handlers only ever see well-formed commands and clicks on buttons they know, from people of the
    // installing organisation.
    createEdgeGate(deps.logger, deps.slack, deps.installingOrg),
    // Once shutdown has begun, a request is answered in plain words and starts nothing.
    refuseWhileStopping(deps.background, deps.logger, deps.slack),
  ];
}

/** Registers the bot with Bolt: one middleware that runs the gates, then the handler the bindings table names. */
export function registerListeners(app: App, deps: ListenerDeps): void {
  app.use(requestPipeline(requestGates(deps), createDispatcher(deps, LISTENER_BINDINGS)));
}
