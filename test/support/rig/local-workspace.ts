// The local workspace of `npm start` (dev/workspace), started with the Slack stand-in that has the tests' hooks.
import {
  type LocalWorkspace as DevLocalWorkspace,
  type LocalWorkspaceOptions as DevLocalWorkspaceOptions,
  startLocalWorkspace as startDevLocalWorkspace,
} from '../../../dev/workspace/index.js';
import { type SlackStandIn, startSlackStandIn } from './slack-stand-in.js';
import { type SocketModeStandIn, startSocketModeStandIn } from './socket-mode-stand-in.js';

export { CHANNELS, USERGROUPS, USERS } from '../../../dev/workspace/index.js';

/** The local workspace, its `slack` and `socket` with the tests' hooks. */
export type LocalWorkspace = Omit<DevLocalWorkspace, 'slack' | 'socket'> & {
  slack: SlackStandIn;
  socket?: SocketModeStandIn;
};

/** Starts the local workspace (see dev/workspace/index.ts) with the tests' stand-ins. */
export async function startLocalWorkspace(
  options: Omit<DevLocalWorkspaceOptions<SlackStandIn>, 'startSlack' | 'startSocket'> = {},
): Promise<LocalWorkspace> {
  let slack: SlackStandIn | undefined;
  let socket: SocketModeStandIn | undefined;
  const workspace = await startDevLocalWorkspace({
    ...options,
    startSlack: async (slackOptions) => {
      slack = await startSlackStandIn(slackOptions);
      return slack;
    },
    startSocket: async (_, socketOptions) => {
      if (slack === undefined) throw new Error('Socket Mode started before the Slack stand-in');
      socket = await startSocketModeStandIn(slack, socketOptions);
      return socket;
    },
  });
  if (slack === undefined) throw new Error('the local workspace started without its Slack stand-in');
  const { slack: _started, socket: _connected, ...rest } = workspace;
  return { ...rest, slack, ...(socket !== undefined ? { socket } : {}) };
}
