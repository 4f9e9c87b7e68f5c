// The local workspace of `npm start` (dev/workspace), started with the Slack stand-in that has the tests' hooks.
import {
  type LocalWorkspace as DevLocalWorkspace,
  type LocalWorkspaceOptions as DevLocalWorkspaceOptions,
  startLocalWorkspace as startDevLocalWorkspace,
} from '../../../dev/workspace/index.js';
import { dueInstant, localDay } from '../../../src/features/digest/schedule.js';
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

/**
 * A start for the workspace's clock after the day's balance snapshot (09:00 in Berlin, the workspace's DIGEST_AT):
 * now, when that is an hour past it, else noon in Berlin today. Before the snapshot the runway honestly measures six
 * days (today's reading is not taken yet); a test that reads the runway's seven days starts its clock here.
 */
export function afterTheDailySnapshot(now = new Date()): Date {
  const today = localDay(now, WORKSPACE_ZONE);
  const settled = dueInstant(today, { hour: 10, minute: 0, timeZone: WORKSPACE_ZONE });
  return now.getTime() >= settled.getTime()
    ? now
    : dueInstant(today, { hour: 12, minute: 0, timeZone: WORKSPACE_ZONE });
}

const WORKSPACE_ZONE = 'Europe/Berlin';
