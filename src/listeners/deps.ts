import type { FeatureDeps } from '../features/lookups.js';
import type { SwapService } from '../features/swaps/index.js';
import type { Logger } from '../logger.js';
import type { AlertStatusView } from '../domain/alerts.js';
import type { SlackGateway } from '../slack/gateway.js';
import type { BackgroundWork } from './background.js';

/** What every listener receives: the features' dependencies plus who may use the bot. */
export interface ListenerDeps extends FeatureDeps {
  logger: Logger;
  /** Empty: everyone may use the bot. */
  treasuryUsers: readonly string[];
  swaps: SwapService;
  /** The alert poller's status; undefined when ALERT_CHANNEL is unset (the poller is off). */
  alerts?: { status(): Promise<AlertStatusView> };
  /** Replies go through the Slack gateway (response_url with retries, then a message as fallback); shares are posted. */
  slack: Pick<SlackGateway, 'respond' | 'post'>;
  /** Where listeners put the work they do after their ack (drained at shutdown). */
  background: BackgroundWork;
}

/** The TREASURY_USERS gate: an empty list lets everyone in. */
export function mayUseBot(deps: ListenerDeps, userId: string): boolean {
  return deps.treasuryUsers.length === 0 || deps.treasuryUsers.includes(userId);
}

/** The polite refusal for people outside TREASURY_USERS; nothing is called for them. */
export const NOT_A_TREASURY_USER =
  'Sorry, this bot is limited to the treasury team. Ask an admin to add you to TREASURY_USERS if you need it.';
