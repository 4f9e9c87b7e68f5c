/**
 * The local workspace: the whole bot on one machine with no configuration. One process, loopback only: the
 * payment API simulator, a Slack stand-in, the real bot configured against both, and a web page that behaves like
 * a Slack client (dev/workspace/page). In HTTP mode (the default) the page's commands and clicks reach the bot as
 * signed Slack requests; in Socket Mode as envelopes over the stand-in's Socket Mode WebSocket, which the page can
 * drop or refresh as Slack does. The bot answers through the stand-in's Web API and response_urls. No demo branch
 * in the bot.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTreasuryApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { localDay } from '../../src/features/digest/schedule.js';
import type { LogLevelName } from '../../src/logger.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { openBotStore } from '../../src/store/lowdb/index.js';
import { type PaymentsSimulator, startSimulator } from '../simulator/index.js';
import { createControls, startLiveActivity } from './controls.js';
import { keepBalanceHistory } from './history.js';
import { createInteractions } from './interactions.js';
import { startWorkspaceServer } from './server.js';
import { manifestShortcuts, postToApp, type RequestKind } from './slack-requests.js';
import { type SlackStandIn, type SlackStandInOptions, startSlackStandIn } from './slack-stand-in.js';
import {
  type SocketModeStandIn,
  type SocketModeStandInOptions,
  startSocketModeStandIn,
} from './socket-mode-stand-in.js';
import { createTimeline, type Timeline } from './timeline.js';
import { workspaceTotpKey } from './totp-key.js';

const TEAM = {
  id: 'T0LOCAL',
  domain: 'acme-treasury',
  appId: 'A0LOCALBOT',
  name: 'Acme Treasury (local)',
} as const;

/**
 * The people of the workspace: who asks, who approves (Avery by name, Jordan through the approver group),
 * someone outside the treasury team, and a partner company's person in the shared channels.
 */
export const USERS = [
  { id: 'U0RILEY', name: 'riley', displayName: 'Riley Chen', title: 'Treasury operator (requests swaps)' },
  { id: 'U0AVERY', name: 'avery', displayName: 'Avery Patel', title: 'Approver (SWAP_APPROVERS)' },
  {
    id: 'U0JORDAN',
    name: 'jordan',
    displayName: 'Jordan Kim',
    title: 'Approver via @treasury-leads (SWAP_APPROVERS group)',
  },
  { id: 'U0SAM', name: 'sam', displayName: 'Sam Lee', title: 'Sales, not on the treasury team' },
  // In the public channels through Slack Connect: Slack sends their own organisation (T0PARTNERCO) in every request
  // of theirs (`user.team_id`, a command's `team_id`), and the bot refuses them whatever TREASURY_USERS says.
  {
    id: 'U0MORGAN',
    name: 'morgan',
    displayName: 'Morgan Diaz',
    title: 'Partner Co, another organisation (Slack Connect)',
    teamId: 'T0PARTNERCO',
  },
] as const;

/**
 * The workspace's user groups: SWAP_APPROVERS names @treasury-leads (not Jordan), so the bot learns who approves
 * from Slack (usergroups.users.list) at the click.
 */
export const USERGROUPS = [
  { id: 'S0TREASURYLEADS', handle: 'treasury-leads', name: 'Treasury leads', users: ['U0JORDAN'] },
] as const;

/** The bot's user id in the workspace's Slack stand-in. */
const BOT_USER_ID = 'U0TREASURYBOT';

const EVERYONE = USERS.map((u) => u.id);
const TREASURY_TEAM = ['U0RILEY', 'U0AVERY', 'U0JORDAN'];

/**
 * The conversations, as Slack has them: two public channels, a private channel of the treasury team with the bot
 * in it, and each person's direct message with the bot. `slackName` is the
 * `channel_name` Slack sends in commands and clicks from there (`privategroup`, `directmessage`).
 */
export const CHANNELS = [
  {
    id: 'C0TREASURY',
    name: 'treasury',
    kind: 'public',
    slackName: 'treasury',
    members: [...EVERYONE, BOT_USER_ID],
    topic: 'Ask the bot: type /treasury help',
  },
  // The bot is not invited here: it joins the alert channel itself at start-up (conversations.join).
  {
    id: 'C0ALERTS',
    name: 'treasury-alerts',
    kind: 'public',
    slackName: 'treasury-alerts',
    members: [...EVERYONE],
    topic: 'Failure alerts from the poller (every 10 s here)',
  },
  {
    id: 'C0TREASURYOPS',
    name: 'treasury-ops',
    kind: 'private',
    slackName: 'privategroup',
    members: [...TREASURY_TEAM, BOT_USER_ID],
    topic: 'Private channel of the treasury team (Riley, Avery, Jordan and the bot)',
  },
  ...USERS.map((u) => ({
    id: `D0${u.name.toUpperCase()}BOT`,
    name: 'treasury',
    kind: 'im' as const,
    slackName: 'directmessage',
    members: [u.id, BOT_USER_ID],
    topic: `${u.displayName}'s direct message with the bot: only the two of them see it`,
  })),
] as const satisfies ReadonlyArray<{
  id: string;
  name: string;
  kind: 'public' | 'private' | 'im';
  slackName: string;
  members: readonly string[];
  topic: string;
}>;

/** Whether a person is in a conversation (and so sees it in the sidebar and may type in it). */
function isIn(channel: { members: readonly string[] }, userId: string): boolean {
  return channel.members.includes(userId);
}

const HINTS = [
  '/treasury help',
  '/treasury balances',
  '/treasury swap 1,000 USDT@ETH to USDC@ETH',
  '/treasury withdrawals',
  '/treasury alerts',
];

/** The shortcuts the app's manifest declares (Slack offers a person only those). */
const APP_SHORTCUTS = manifestShortcuts(readAppManifest());

/** manifests/manifest.json, from dev/workspace (run from source) or dist/dev/workspace (built). */
function readAppManifest(): unknown {
  for (const up of ['../../', '../../../']) {
    const file = new URL(`${up}manifests/manifest.json`, import.meta.url);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  }
  return {};
}

/** When the workspace's bot posts its daily digest. */
const DIGEST_AT = '09:00 Europe/Berlin';

/** How often the bot polls for failures in the workspace (a production default is once a minute). */
const POLL_SCHEDULE = '*/10 * * * * *';

export interface LocalWorkspaceOptions<S extends SlackStandIn = SlackStandIn> {
  /** The page's port (default 3000; 0 picks a free one). */
  port?: number;
  /** Bot log level (default warn: the banner is what a newcomer needs). */
  logLevel?: LogLevelName;
  logger?: Logger;
  /** Seconds between live-activity ticks (new deposits, withdrawals completing); 0 turns it off. Default 20. */
  activityEverySeconds?: number;
  /** Runs the bot in Socket Mode (`npm run demo -- --socket-mode`) instead of HTTP mode. */
  socketMode?: boolean;
  /** Starts Slack's stand-in (default startSlackStandIn); tests pass test/support/rig's, which adds their hooks. */
  startSlack?: (options: SlackStandInOptions) => Promise<S>;
  /** Starts the Socket Mode stand-in in Socket Mode (default startSocketModeStandIn; the tests' rig passes one with its hooks). */
  startSocket?: (slack: S, options: SocketModeStandInOptions) => Promise<SocketModeStandIn>;
  /**
   * Where the state file and the TOTP key are kept; given, it is kept after close (a restart on it keeps the
   * enrolments and quotes). Default: a new temporary dir, removed at close.
   */
  dataDir?: string;
  /**
   * Where the workspace's clock starts (default: now). The runway and the digest read the time of day in Berlin, so
   * a test that reads them starts the clock at a fixed hour and reads the same at any hour it runs.
   */
  startAt?: Date;
}

export interface LocalWorkspace<S extends SlackStandIn = SlackStandIn> {
  /** The page: http://localhost:<port>/ */
  url: string;
  port: number;
  simulator: PaymentsSimulator;
  slack: S;
  /** How the bot hears Slack: signed HTTP requests, or a Socket Mode connection. */
  mode: 'http' | 'socket';
  /** Socket Mode: the stand-in of Slack's Socket Mode endpoint the bot is connected to. */
  socket?: SocketModeStandIn;
  /** The bot's own /healthz (in Socket Mode it says whether the connection is open). */
  healthUrl: string;
  /** The bot token the stand-in accepts (a random local value; posting with it is what the bot does). */
  botToken: string;
  timeline: Timeline;
  /** The workspace's clock (ms since the epoch): the bot's, moved by startAt and the panel's clock controls. */
  now(): number;
  close(): Promise<void>;
}

/** Starts everything; rejects with a plain message when the page's port is taken. */
export async function startLocalWorkspace<S extends SlackStandIn = SlackStandIn>(
  options: LocalWorkspaceOptions<S> = {},
): Promise<LocalWorkspace<S>> {
  const logger = options.logger ?? createLogger(options.logLevel ?? 'warn');
  // One clock for the bot, the simulator and Slack's response_url lifetimes, so "move the clock" moves them all.
  const startOffsetMs = options.startAt ? options.startAt.getTime() - Date.now() : 0;
  let offsetMs = startOffsetMs;
  const nowMs = () => Date.now() + offsetMs;

  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'treasury-workspace-'));
  const cleanups: Array<() => Promise<void> | void> =
    options.dataDir === undefined ? [() => rmSync(dataDir, { recursive: true, force: true })] : [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  };
  try {
    // The simulator keeps its own offset for the panel's clock moves (advanceTime); it starts where the rest does.
    const simulator = await startSimulator({
      quiet: true,
      host: '127.0.0.1',
      port: 0,
      now: () => Date.now() + startOffsetMs,
    });
    cleanups.push(() => simulator.close());
    const botToken = `xoxb-local-${randomBytes(8).toString('hex')}`;
    const signingSecret = randomBytes(16).toString('hex');
    const appToken = options.socketMode ? `xapp-local-${randomBytes(8).toString('hex')}` : undefined;
    // The default starter yields the plain stand-in, which is S when no starter is given.
    const startSlack = options.startSlack ?? (startSlackStandIn as (o: SlackStandInOptions) => Promise<S>);
    const slack = await startSlack({
      botToken,
      ...(appToken ? { appToken } : {}),
      botUserId: BOT_USER_ID,
      now: nowMs,
      teamId: TEAM.id,
      teamName: TEAM.name,
      teamDomain: TEAM.domain,
      conversations: CHANNELS.map((c) => ({
        id: c.id,
        name: c.kind === 'im' ? undefined : c.name,
        kind: c.kind,
        members: [...c.members],
      })),
      usergroups: USERGROUPS.map((g) => ({ ...g, users: [...g.users] })),
      // views.publish publishes only to the people of this workspace.
      users: USERS.map((u) => u.id),
      appId: TEAM.appId,
    });
    cleanups.push(() => slack.close());
    const socket = options.socketMode
      ? await (options.startSocket ?? startSocketModeStandIn)(slack, { appId: TEAM.appId })
      : undefined;
    if (socket) cleanups.push(() => socket.close());

    const [requester, approver] = USERS;
    const config = loadConfig({
      PAYMENTS_API_URL: simulator.url,
      PAYMENTS_API_KEY: simulator.apiKey,
      SLACK_BOT_TOKEN: botToken,
      ...(appToken ? { SLACK_APP_TOKEN: appToken } : { SLACK_SIGNING_SECRET: signingSecret }),
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      ALERT_CHANNEL: CHANNELS[1].id,
      POLL_SCHEDULE,
      ALERT_LOOKBACK: '1h',
      // The daily digest in #treasury-alerts (the default: ALERT_CHANNEL); started after 09:00 Berlin time, the day's
      // digest is posted at once (late rather than never), and the panel posts another on request.
      DIGEST_AT: DIGEST_AT,
      // Avery by name and Jordan through the group; from $10,000 a swap needs both.
      SWAP_APPROVERS: `${approver.id},${USERGROUPS[0].id}`,
      SWAP_POLICY: '0:1,10000:2',
      TREASURY_USERS: TREASURY_TEAM.join(','),
      DATA_FILE: join(dataDir, 'state.json'),
      LOG_LEVEL: options.logLevel ?? 'warn',
      // Approving a swap of $50,000 or more needs a code from the approver's authenticator app (`/treasury 2fa enroll`);
      // the key that seals the enrolled secrets is made once and kept beside the state file.
      SWAP_STEP_UP_USD: '50000',
      TOTP_ENCRYPTION_KEY: workspaceTotpKey(dataDir),
      // /metrics beside the bot's port takes a token in HTTP mode (else it is off, with a warning a newcomer need
      // not read): a random one, since nothing here scrapes it.
      METRICS_TOKEN: randomBytes(16).toString('hex'),
    });
    const payments = createPaymentsClient({ baseUrl: config.paymentsApiUrl, apiKey: config.paymentsApiKey, logger });
    const store = await openBotStore(config.dataFile, logger);
    cleanups.push(() => store.close());
    // Thirty days of the daily snapshots the digest keeps, so the runway and the chart show something at once.
    await keepBalanceHistory(store.balances, await payments.listAssets(), localDay(new Date(nowMs()), 'Europe/Berlin'));
    const bot = createTreasuryApp({
      config,
      payments,
      store,
      logger,
      now: () => new Date(nowMs()),
      host: '127.0.0.1',
      // Only a refused app token or link_disabled ends a Socket Mode connection for good; the page has no control for either.
      onFatal: (problem) => logger.error(`the bot lost Slack for good: ${problem}`),
    });
    const { port: botPort } = await bot.start();
    cleanups.push(() => bot.stop());
    const eventsUrl = `http://127.0.0.1:${botPort}/slack/events`;
    const healthUrl = `http://127.0.0.1:${botPort}/healthz`;

    const timeline = createTimeline(nowMs);
    // What people do in the page reaches the bot as Slack would send it: in Socket Mode as an envelope on the
    // bot's connection, otherwise as a signed request (a command form-encoded, an interaction as `payload`).
    const interactions = createInteractions({
      team: TEAM,
      people: USERS,
      conversations: CHANNELS,
      slack,
      timeline,
      deliver: (kind: RequestKind, payload: Record<string, unknown>) =>
        socket ? socket.send(kind, payload) : postToApp(eventsUrl, signingSecret, kind, payload),
      logger,
      now: nowMs,
      shortcuts: APP_SHORTCUTS,
    });
    cleanups.push(() => interactions.close());

    const channelOf = (channelId: string) => CHANNELS.find((c) => c.id === channelId);

    const server = await startWorkspaceServer({
      port: options.port ?? 3000,
      logger,
      timeline,
      workspace: {
        team: { name: TEAM.name },
        users: USERS.map((u) => ({ id: u.id, name: u.displayName, title: u.title })),
        // For the page: `<!subteam^S…>` shows as @handle, and the switcher says who is in which group.
        groups: USERGROUPS.map((g) => ({ id: g.id, handle: g.handle, name: g.name, members: [...g.users] })),
        channels: CHANNELS.map((c) => ({
          id: c.id,
          name: c.name,
          kind: c.kind,
          members: [...c.members],
          topic: c.topic,
        })),
        defaultUser: requester.id,
        defaultChannel: CHANNELS[0].id,
        hints: HINTS,
        mode: socket ? 'socket' : 'http',
        // The composer's shortcuts menu: the global shortcuts the app's manifest declares.
        shortcuts: APP_SHORTCUTS.filter((s) => s.type === 'global').map((s) => ({
          callbackId: s.callback_id,
          name: s.name,
          description: s.description,
        })),
      },
      command: interactions.command,
      action: interactions.action,
      submitView: interactions.submitView,
      closeView: interactions.closeView,
      openHome: interactions.openHome,
      homeAction: interactions.homeAction,
      viewAction: interactions.viewAction,
      shortcut: interactions.shortcut,
      homeOf: (userId) => slack.homeView(userId),
      controls: createControls({
        simulator,
        slack,
        socket,
        alertChannel: CHANNELS[1].id,
        shiftClock: (ms) => (offsetMs += ms),
        postDigestNow: () => bot.digest.postNow(),
      }),
      // In Socket Mode the page shows what the bot's own /healthz says about its connection to Slack.
      ...(socket
        ? {
            async botConnection() {
              const response = await fetch(healthUrl, { signal: AbortSignal.timeout(2_000) });
              const health = (await response.json()) as { socket?: string; since?: string; reconnects?: number };
              return { socket: health.socket, since: health.since, reconnects: health.reconnects };
            },
          }
        : {}),
      isMember: (userId, channelId) => {
        const channel = channelOf(channelId);
        return channel !== undefined && isIn(channel, userId);
      },
    });
    cleanups.push(() => server.close());
    // Links to messages (chat.getPermalink) open them on this page rather than at slack.com.
    slack.setPermalinkPage(`http://localhost:${server.port}/`);

    const activity = startLiveActivity(simulator, (options.activityEverySeconds ?? 20) * 1000);
    cleanups.push(activity);

    return {
      url: `http://localhost:${server.port}/`,
      port: server.port,
      simulator,
      slack,
      mode: socket ? 'socket' : 'http',
      ...(socket ? { socket } : {}),
      healthUrl,
      botToken,
      timeline,
      now: nowMs,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
