/**
 * What every listener shares, whatever its feature: the platform it is handed beside the feature services (the Slack
 * gateway, the payment API, the clock, the logger, the register of work after the ack), how a binding ties a command
 * name, action_id, view, shortcut or event to the factory of its handler (src/listeners/index.ts registers every
 * table), the Home tab's refresh after a person acted, and the words for a button this version does not know. It
 * names no feature: each feature's listeners say which services they use, and the edge hands over the whole list
 * (src/services.ts, src/listeners/deps.ts).
 */
import type {
  AllMiddlewareArgs,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { Logger } from '../logger.js';
import type { PaymentsClient } from '../payments/index.js';
import type { SlackGateway } from './gateway.js';

/** Told to whoever clicks a button this version does not know (a message from an older version, or altered). */
export const UNSUPPORTED_BUTTON = 'This button is no longer supported. Run the command again for a fresh message.';

/** Where listeners put the work they do after their ack (drained at shutdown; see listeners/background.ts). */
export interface AfterAck {
  run(name: string, work: () => Promise<void>): void;
}

/** What every listener and subcommand is handed beside the feature services: the platform. */
export interface ListenerPlatform {
  /** The payment API. */
  payments: PaymentsClient;
  now: () => Date;
  logger: Logger;
  /** Replies go through the Slack gateway (response_url with retries, then a message as fallback); shares are posted. */
  slack: Pick<SlackGateway, 'respond' | 'post'>;
  /**
   * The same gateway's modals, which the forms open and update (src/features/forms), and the direct message a form's
   * answer goes to when no command's response_url is at hand.
   */
  views: Pick<SlackGateway, 'openView' | 'updateView' | 'openDirectMessage'>;
  background: AfterAck;
}

/** The Home tab as an act refreshes it (features/home's HomeTab is one). */
export interface HomeRefresh {
  refreshHome(userId: string): Promise<void>;
}

/** Republishes the person's Home tab after they acted (see HomeTab.refreshHome), in the background. */
export function refreshHomeAfterAct(deps: { home: HomeRefresh; background: AfterAck }, userId: string): void {
  deps.background.run('home tab after an act', () => deps.home.refreshHome(userId));
}

type Listener<Args> = (args: Args & AllMiddlewareArgs) => Promise<void>;

/**
 * One command name, action_id, view callback_id, global shortcut or event bound to the factory of its handler, which
 * receives `Deps` (what its feature uses). Each feature's listeners file exports its bindings next to the handlers;
 * src/listeners/index.ts registers them all. An action's handler reads button clicks (one that reads any block
 * action, such as a select, fits too).
 */
export type ListenerBinding<Deps> =
  | { kind: 'command'; id: string; create: (deps: Deps) => Listener<SlackCommandMiddlewareArgs> }
  | {
      kind: 'action';
      id: string | RegExp;
      create: (deps: Deps) => Listener<SlackActionMiddlewareArgs<BlockButtonAction>>;
    }
  | { kind: 'view'; id: string; create: (deps: Deps) => Listener<SlackViewMiddlewareArgs<ViewSubmitAction>> }
  | { kind: 'shortcut'; id: string; create: (deps: Deps) => Listener<SlackShortcutMiddlewareArgs> }
  | {
      kind: 'event';
      id: 'app_home_opened';
      create: (deps: Deps) => Listener<SlackEventMiddlewareArgs<'app_home_opened'>>;
    };
