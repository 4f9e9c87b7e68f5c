import type { InstallingOrg } from '../features/access/rules.js';
import type { TreasuryAccessCheck } from '../features/access/service.js';
import type { AlertStatusView } from '../features/alerts/facts.js';
import type { AlertService } from '../features/alerts/index.js';
import type { AuditExport } from '../features/audit/index.js';
import type { DigestService } from '../features/digest/index.js';
import type { HomeTab } from '../features/home/index.js';
import type { InvoiceFollower } from '../features/invoices/index.js';
import type { FeatureDeps } from '../features/lookups/service.js';
import type { PayoutService } from '../features/payouts/service.js';
import type { SwapService } from '../features/swaps/index.js';
import type { ThresholdService } from '../features/thresholds/service.js';
import type { Logger } from '../logger.js';
import type { SlackGateway } from '../slack/gateway.js';
import type { BackgroundWork } from './background.js';

/** What every listener receives: the features' dependencies plus who may use the bot. */
export interface ListenerDeps extends FeatureDeps {
  logger: Logger;
  /** TREASURY_USERS: who may use the bot (people, user groups, or `*`); see features/access/service.ts. */
  access: TreasuryAccessCheck;
  /**
   * The workspace the bot is installed in (auth.test at start); undefined until it is known, and then every request
   * is refused (see the edge middleware): people of other organisations never reach a listener.
   */
  installingOrg: () => InstallingOrg | undefined;
  swaps: SwapService;
  /** `/treasury threshold(s)`. */
  thresholds: ThresholdService;
  /** `/treasury payout create` and its Create payout / Cancel buttons. */
  payouts: PayoutService;
  /** `/treasury audit <period>`: the audit trail as a CSV file in the requester's DM (admins). */
  audit: AuditExport;
  /** `/treasury digest`: the daily digest's words, privately. */
  digest: Pick<DigestService, 'show'>;
  /** The alert poller's status; undefined when ALERT_CHANNEL is unset (the poller is off). */
  alerts?: { status(): Promise<AlertStatusView> };
  /** Acknowledge, snooze, resolve and list alerts people own; undefined when the poller is off. */
  alertActions?: AlertService;
  /**
   * Invoices that report back (part 16): a new invoice is followed, a shared copy recorded to be rewritten.
   * Undefined when the poller is off (ALERT_CHANNEL unset): nothing follows them then.
   */
  invoices?: Pick<InvoiceFollower, 'follow' | 'recordShare'>;
  /** Replies go through the Slack gateway (response_url with retries, then a message as fallback); shares are posted. */
  slack: Pick<SlackGateway, 'respond' | 'post'>;
  /** Where listeners put the work they do after their ack (drained at shutdown). */
  background: BackgroundWork;
  /**
   * The Home tab: published when opened, on a click in it, and after a person acts (`refreshHome`). Optional so
   * listener tests can leave it out; app.ts always gives it.
   */
  home?: HomeTab;
}
