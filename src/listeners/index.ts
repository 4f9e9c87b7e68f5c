import type { App } from '@slack/bolt';
import { ACTION_IDS, VIEW_IDS, WITHDRAWALS_PAGE_ACTIONS } from '../blocks/ids.js';
import {
  createAlertAcknowledgeListener,
  createAlertResolveListener,
  createAlertResolveSubmitListener,
  createAlertSnoozeListener,
} from '../features/alerts/listeners.js';
import { createHomeOpenedListener } from '../features/home/opened-listener.js';
import { createHomeRefreshListener } from '../features/home/refresh-listener.js';
import {
  createGasPageListener,
  createPayoutsPageListener,
  createShareListener,
  createWithdrawalsPageListener,
} from '../features/lookups/listeners.js';
import { createPayoutCancelListener, createPayoutCreateListener } from '../features/payouts/listeners.js';
import {
  createSwapApproveListener,
  createSwapNewQuoteListener,
  createSwapRejectListener,
} from '../features/swaps/listeners.js';
import { createTreasuryCommandListener } from './commands/treasury.js';
import type { ListenerDeps } from './deps.js';
import { createEdgeMiddleware, TREASURY_COMMAND } from './edge.js';
import { refuseWhileStopping, trackRequests } from './shutdown-gate.js';

/** The slash command the manifest declares. */
export { TREASURY_COMMAND };

/** The one place where command names and action_ids are bound to their handlers. */
export function registerListeners(app: App, deps: ListenerDeps): void {
  // Every request is work in flight until its listeners end: shutdown waits for it (see shutdown-gate.ts).
  app.use(trackRequests(deps.background));
  // Then: listeners below only ever see well-formed commands and clicks on buttons they know, from people of the
  // installing organisation.
  app.use(createEdgeMiddleware(deps.logger, deps.slack, deps.installingOrg));
  // Once shutdown has begun, a request is answered in plain words and starts nothing.
  app.use(refuseWhileStopping(deps.background, deps.logger, deps.slack));
  app.command(TREASURY_COMMAND, createTreasuryCommandListener(deps));
  app.action(WITHDRAWALS_PAGE_ACTIONS, createWithdrawalsPageListener(deps));
  app.action(ACTION_IDS.payoutsPage, createPayoutsPageListener(deps));
  app.action(ACTION_IDS.gasPage, createGasPageListener(deps));
  app.action(ACTION_IDS.shareInChannel, createShareListener(deps));
  app.action(ACTION_IDS.swapApprove, createSwapApproveListener(deps));
  app.action(ACTION_IDS.swapReject, createSwapRejectListener(deps));
  app.action(ACTION_IDS.swapNewQuote, createSwapNewQuoteListener(deps));
  app.action(ACTION_IDS.alertAcknowledge, createAlertAcknowledgeListener(deps));
  app.action(ACTION_IDS.alertResolve, createAlertResolveListener(deps));
  app.action(ACTION_IDS.alertSnooze, createAlertSnoozeListener(deps));
  app.view(VIEW_IDS.alertResolve, createAlertResolveSubmitListener(deps));
  app.action(ACTION_IDS.homeRefresh, createHomeRefreshListener(deps));
  app.action(ACTION_IDS.payoutCreate, createPayoutCreateListener(deps));
  app.action(ACTION_IDS.payoutCancel, createPayoutCancelListener(deps));
  app.event('app_home_opened', createHomeOpenedListener(deps));
}
