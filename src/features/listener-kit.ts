/**
 * What every feature's listeners file shares: the services its handlers receive, how it binds its command names,
 * action_ids, views and events to them (src/listeners/index.ts registers every table), and the words for a button
 * this version does not know.
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
import type { SlackGateway } from '../slack/gateway.js';
import type { TreasuryAccessCheck } from './access/service.js';
import type { AlertStatusView } from './alerts/blocks.js';
import type { AlertService } from './alerts/index.js';
import type { AuditExport } from './audit/index.js';
import type { DigestService } from './digest/index.js';
import type { FreezeService } from './freeze/service.js';
import type { HomeTab } from './home/index.js';
import type { InvoiceFollower } from './invoices/index.js';
import type { FeatureDeps } from './lookups/service.js';
import type { PayoutService } from './payouts/service.js';
import type { FormSubmissionRepository } from './repositories.js';
import type { RunwayService } from './runway/index.js';
import type { SecondFactorService } from './second-factor/service.js';
import type { SwapService } from './swaps/index.js';
import type { ThresholdService } from './thresholds/service.js';

/** Told to whoever clicks a button this version does not know (a message from an older version, or altered). */
export const UNSUPPORTED_BUTTON = 'This button is no longer supported. Run the command again for a fresh message.';

/** What a feature's handlers receive: the features' services plus who may use the bot (ListenerDeps adds the edge's). */
export interface FeatureListenerDeps extends FeatureDeps {
  logger: Logger;
  /** TREASURY_USERS: who may use the bot (people, user groups, or `*`); see features/access/service.ts. */
  access: TreasuryAccessCheck;
  swaps: SwapService;
  /** `/treasury threshold(s)`. */
  thresholds: ThresholdService;
  /** `/treasury payout create` and its Create payout / Cancel buttons. */
  payouts: PayoutService;
  /** `/treasury freeze` and Unfreeze in ALERT_CHANNEL. */
  freeze: FreezeService;
  /** `/treasury audit <period>`: the audit trail as a CSV file in the requester's DM (admins). */
  audit: AuditExport;
  /** Forms' submissions claimed once across replicas (the store's `formSubmissions`). */
  formSubmissions: FormSubmissionRepository;
  /** `/treasury 2fa`, and the code asked for an approval above SWAP_STEP_UP_USD. */
  secondFactor: SecondFactorService;
  /** `/treasury digest`: the daily digest's words, privately. */
  digest: Pick<DigestService, 'show'>;
  /** The alert poller's status; undefined when ALERT_CHANNEL is unset (the poller is off). */
  alerts?: { status(): Promise<AlertStatusView> };
  /** Acknowledge, snooze, resolve and list alerts people own; undefined when the poller is off. */
  alertActions?: AlertService;
  /**
   * Invoices that report back: a new invoice is followed, a shared copy recorded to be rewritten.
   * Undefined when the poller is off (ALERT_CHANNEL unset): nothing follows them then.
   */
  invoices?: Pick<InvoiceFollower, 'follow' | 'recordShare'>;
  /** Replies go through the Slack gateway (response_url with retries, then a message as fallback); shares are posted. */
  slack: Pick<SlackGateway, 'respond' | 'post'>;
  /** Where listeners put the work they do after their ack (drained at shutdown; see listeners/background.ts). */
  background: { run(name: string, work: () => Promise<void>): void };
  /**
   * The Home tab: published when opened, on a click in it, and after a person acts (`refreshHome`). Optional so
   * listener tests can leave it out; app.ts always gives it.
   */
  home?: HomeTab;
  /**
   * Modals the forms open and update (src/features/forms), and the direct message a form's answer goes to when no
   * command's response_url is at hand. Optional so listener tests can leave it out; app.ts always gives it.
   */
  views?: Pick<SlackGateway, 'openView' | 'updateView' | 'openDirectMessage'>;
  /** `/treasury runway`: how long each balance lasts. Optional so listener tests can leave it out; app.ts always gives it. */
  runway?: Pick<RunwayService, 'show'>;
}

type Listener<Args> = (args: Args & AllMiddlewareArgs) => Promise<void>;

/**
 * One command name, action_id, view callback_id, global shortcut or event bound to the factory of its handler. Each feature's
 * listeners file exports its bindings next to the handlers; src/listeners/index.ts registers them all. An action's
 * handler reads button clicks (one that reads any block action, such as a select, fits too).
 */
export type ListenerBinding =
  | { kind: 'command'; id: string; create: (deps: FeatureListenerDeps) => Listener<SlackCommandMiddlewareArgs> }
  | {
      kind: 'action';
      id: string | RegExp;
      create: (deps: FeatureListenerDeps) => Listener<SlackActionMiddlewareArgs<BlockButtonAction>>;
    }
  | {
      kind: 'view';
      id: string;
      create: (deps: FeatureListenerDeps) => Listener<SlackViewMiddlewareArgs<ViewSubmitAction>>;
    }
  | {
      kind: 'shortcut';
      id: string;
      create: (deps: FeatureListenerDeps) => Listener<SlackShortcutMiddlewareArgs>;
    }
  | {
      kind: 'event';
      id: 'app_home_opened';
      create: (deps: FeatureListenerDeps) => Listener<SlackEventMiddlewareArgs<'app_home_opened'>>;
    };
