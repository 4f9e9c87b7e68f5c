import type { CommandDeps } from '../commands/subcommand.js';
import type { InstallingOrg } from '../features/access/rules.js';
import type { BackgroundWork } from './background.js';

/**
 * What the listeners and the edge gate receive: what the subcommands are handed (the platform, every feature service
 * and the alert poller's status) plus the edge's own.
 */
export type ListenerDeps = CommandDeps & {
  /**
   * The workspace the bot is installed in (auth.test at start); undefined until it is known, and then every request
   * is refused (see the edge gate): people of other organisations never reach a listener.
   */
  installingOrg: () => InstallingOrg | undefined;
  /** Where listeners put the work they do after their ack (drained at shutdown). */
  background: BackgroundWork;
};
