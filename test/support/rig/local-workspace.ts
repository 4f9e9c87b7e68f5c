// The local workspace of `npm start` (dev/workspace), started with the Slack stand-in that has the tests' hooks.
import {
  type LocalWorkspace as DevLocalWorkspace,
  type LocalWorkspaceOptions as DevLocalWorkspaceOptions,
  startLocalWorkspace as startDevLocalWorkspace,
} from '../../../dev/workspace/index.js';
import { type SlackStandIn, startSlackStandIn } from './slack-stand-in.js';

export { CHANNELS, USERGROUPS, USERS } from '../../../dev/workspace/index.js';

/** The local workspace, its Slack stand-in with the tests' hooks. */
export type LocalWorkspace = DevLocalWorkspace<SlackStandIn>;
/** Options of the local workspace (its Slack stand-in is always the rig's). */
export type LocalWorkspaceOptions = Omit<DevLocalWorkspaceOptions<SlackStandIn>, 'startSlack'>;

/** Starts the local workspace as `npm start` does, with the rig's Slack stand-in. */
export function startLocalWorkspace(options: LocalWorkspaceOptions = {}): Promise<LocalWorkspace> {
  return startDevLocalWorkspace({ ...options, startSlack: startSlackStandIn });
}
