// The alerts people own, end to end: the real app (createTreasuryApp, in this process) on the state file or on
// PostgreSQL (one or two replicas sharing a database), the payment API simulator and the Slack stand-in, with clicks,
// menu choices and modal submissions sent as Slack sends them (signed HTTP to /slack/events).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import {
  type ButtonClick,
  blockActionsPayload,
  formBody,
  menuOptions,
  type OptionChoice,
} from '../../dev/workspace/slack-requests.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { postgresSkipReason, testCluster } from '../support/postgres.js';
import { type Replica, type ReplicaOptions, type StoreChoice, startReplica } from '../support/replica.js';
import { messageToText } from '../support/rig/blocks-text.js';
import {
  type OpenedView,
  type RecordedResponse,
  type SlackStandIn,
  type StoredMessage,
  startSlackStandIn,
} from '../support/rig/slack-stand-in.js';

export type { Replica, StoreChoice, StoredMessage };

/**
 * A throwaway PostgreSQL server for the calling test file: started before its tests and stopped after, when this
 * machine has PostgreSQL (else the file's PostgreSQL cases are left out, with the reason logged once).
 */
export function usePostgres(name: string): { available: boolean; database(): Promise<StoreChoice> } {
  const postgres = testCluster(name, 60_000);
  if (!postgres.available) console.warn(postgresSkipReason);
  return {
    available: postgres.available,
    database: async () => ({ kind: 'postgres', databaseUrl: await postgres.createDatabase() }),
  };
}

/** The stores every end-to-end case runs on: the state file, and PostgreSQL where there is one. */
export function storesUnderTest(postgres: ReturnType<typeof usePostgres>): Array<[string, () => Promise<StoreChoice>]> {
  return [
    ['the state file', async () => ({ kind: 'file' })],
    ...(postgres.available ? [['PostgreSQL', () => postgres.database()] as [string, () => Promise<StoreChoice>]] : []),
  ];
}

export const ALERTS = 'C0ALERTS';
const TOKEN = 'xoxb-alerts-e2e';
const SECRET = 'alerts-e2e-signing-secret';
/** Treasury people: Avery and Blake act on alerts; Sam is not on the treasury team. */
export const AVERY = 'U0AVERY';
export const BLAKE = 'U0BLAKE';
export const SAM = 'U0SAM';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** The advisory lock key of the poller's lease in these tests (any key: each rig has its own database). */
const LEASE_KEY = 0x616c_6572_7473_3133n;

/** A click or choice sent to the bot, with its trigger_id and what came back on its response_url. */
export interface SentClick {
  status: number;
  triggerId: string;
  responseUrl: string;
  responses(): RecordedResponse[];
  waitForResponses(count: number, timeoutMs?: number): Promise<RecordedResponse[]>;
}

/** Which replica a click goes to, and the clicker's own organisation when it is another (Slack Connect). */
export interface ClickOptions {
  replica?: number;
  /** A member of another organisation in the shared channel: their team (Slack's `user.team_id`). */
  teamId?: string;
}

export interface AlertRig {
  simulator: PaymentsSimulator;
  slack: SlackStandIn;
  replicas: Replica[];
  config: Config;
  logs: string[];
  /** A poll by the first replica (the one that takes the lease on PostgreSQL), with its follow-up. */
  poll(): Promise<void>;
  /** A withdrawal that failed now, polled: its alert message. */
  failedWithdrawal(): Promise<{ id: string; alert: StoredMessage }>;
  /** The message `ts` as it is now (in `channel`, default ALERT_CHANNEL); undefined when it is gone. */
  message(ts: string, channel?: string): StoredMessage | undefined;
  /** The replies in the thread of `ts`, oldest first. */
  thread(ts: string, channel?: string): StoredMessage[];
  /** Waits until the message `ts` reads as `pattern` (its top blocks and the attachment's). */
  waitForMessage(ts: string, pattern: RegExp, channel?: string): Promise<StoredMessage>;
  /** Waits until the thread of `ts` has `count` replies. */
  waitForThread(ts: string, count: number, channel?: string): Promise<StoredMessage[]>;
  /** Clicks a button of the alert message as `userId` saw it (pass an older copy for a stale click). */
  click(
    message: StoredMessage,
    actionId: string,
    userId: string,
    options?: ClickOptions & { triggerIssuedAt?: number },
  ): Promise<SentClick>;
  /** Chooses an option of the Snooze menu of the message as `userId` saw it. */
  snooze(message: StoredMessage, value: string, userId: string, options?: ClickOptions): Promise<SentClick>;
  /** The modal views.open opened with `triggerId`. */
  viewOpenedBy(triggerId: string): Promise<OpenedView>;
  /** Submits the Resolve modal with `note` as `userId`: the bot's answer (null: closed). */
  submitResolve(
    view: OpenedView,
    userId: string,
    note: string | null,
    options?: Pick<ClickOptions, 'teamId'>,
  ): Promise<Record<string, unknown> | null>;
  /** A /treasury command as `userId`: the text of the private answer. */
  command(text: string, userId: string): Promise<RecordedResponse>;
  /** Stops replica `index` and starts it again on the same store (a restart). */
  restart(index?: number): Promise<void>;
  close(): Promise<void>;
}

export interface AlertRigOptions {
  store: StoreChoice;
  /** Replica names (PostgreSQL only for more than one); default one. */
  replicas?: string[];
  env?: Record<string, string>;
  /** The clock at start (default the simulator's: real time). */
  startAt?: string;
  /** Further options of the app (e.g. the daily snapshot's timer, off by default in the rigs). */
  app?: ReplicaOptions['app'];
}

/** Starts a fresh simulator (no seed: only what a test adds), a fresh stand-in, and the replicas. */
export async function startAlertRig(options: AlertRigOptions): Promise<AlertRig> {
  const simulator = await startSimulator({ quiet: true, seed: false });
  if (options.startAt) simulator.setTime(Date.parse(options.startAt));
  const slack = await startSlackStandIn({
    botToken: TOKEN,
    conversations: [
      { id: ALERTS, kind: 'public', name: 'treasury-alerts', members: [AVERY, BLAKE, SAM] },
      { id: 'C0OPS', kind: 'public', name: 'ops', members: [AVERY, BLAKE, SAM] },
    ],
  });
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const dataFile = join(mkdtempSync(join(tmpdir(), 'alerts-e2e-')), 'state.json');
  const config = loadConfig({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    DATA_FILE: dataFile,
    ALERT_CHANNEL: ALERTS,
    // Never fires during a test: polls are started by hand (runNow), through the same guard.
    POLL_SCHEDULE: '0 0 1 1 *',
    TREASURY_USERS: `${AVERY},${BLAKE}`,
    ...options.env,
  });
  const payments = createPaymentsClient({
    baseUrl: config.paymentsApiUrl,
    apiKey: config.paymentsApiKey,
    logger,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
  });
  // The bot's clock is the simulator's: advancing simulator time moves both (reminders, snoozes).
  const now = () => new Date(simulator.now());

  const start = (name: string): Promise<Replica> =>
    startReplica({
      name,
      store: options.store,
      config,
      payments,
      logger,
      now,
      slack,
      signingSecret: SECRET,
      leaseKey: LEASE_KEY,
      app: { alertSleep: async () => undefined, ...options.app },
    });

  const names = options.replicas ?? ['a'];
  if (names.length > 1 && options.store.kind !== 'postgres') throw new Error('replicas share PostgreSQL only');
  const replicas: Replica[] = [];
  for (const name of names) replicas.push(await start(name));
  // The bot joins the alert channel at start-up, in the background: wait for it, so reads of the channel work.
  await slack.waitFor(() => slack.isMember(ALERTS, slack.botUserId), 5_000, 'the bot in the alert channel');

  const message = (ts: string, channel = ALERTS) => slack.messages(channel).find((m) => m.ts === ts);
  const thread = (ts: string, channel = ALERTS) =>
    slack.messages(channel).filter((m) => m.threadTs === ts && m.ts !== ts);

  const send = async (
    message: StoredMessage,
    userId: string,
    control: (actions: Record<string, unknown>) => ButtonClick | OptionChoice,
    options: ClickOptions & { triggerIssuedAt?: number } = {},
  ): Promise<SentClick> => {
    const actions = alertActionsBlock(message);
    const responseUrl = slack.createResponseUrl({ channel: message.channel, ts: message.ts });
    const payload = blockActionsPayload(
      { id: 'T_TEST', domain: 'treasury-test', appId: 'A_TEST' },
      { id: userId, name: userId.toLowerCase(), ...(options.teamId !== undefined ? { teamId: options.teamId } : {}) },
      { id: message.channel, name: message.channel.toLowerCase() },
      control(actions),
      slack.botUserId,
      responseUrl,
      options.triggerIssuedAt ?? Date.now(),
    );
    // Slack sends the whole message clicked in, its attachments too (the controls are in one).
    (payload.message as Record<string, unknown>).attachments = message.attachments;
    const body = formBody('interactive', payload);
    const driver = replicas[options.replica ?? 0]!.driver;
    const answer = await driver.sendRaw(body, {
      'content-type': 'application/x-www-form-urlencoded',
      ...driver.signatureHeaders(body),
    });
    return {
      status: answer.status,
      triggerId: String(payload.trigger_id),
      responseUrl,
      responses: () => slack.responses(responseUrl),
      waitForResponses: (count, timeoutMs) => slack.waitForResponses(responseUrl, count, timeoutMs),
    };
  };

  const clicked = (message: StoredMessage) => ({
    ts: message.ts,
    ephemeral: false,
    ...(message.text !== undefined ? { text: message.text } : {}),
    ...(message.blocks !== undefined ? { blocks: message.blocks } : {}),
  });

  const rig: AlertRig = {
    simulator,
    slack,
    replicas,
    config,
    logs,
    async poll() {
      await replicas[0]!.treasury.alerts!.runNow();
    },
    async failedWithdrawal() {
      const row = simulator.addWithdrawal({ status: 'failed' });
      await rig.poll();
      const alert = slack.messages().find((m) => m.threadTs === undefined && messageToText(m).includes(row.id));
      if (!alert) throw new Error(`no alert about ${row.id} after a poll:\n${logs.slice(-20).join('\n')}`);
      return { id: row.id, alert };
    },
    message,
    thread,
    waitForMessage: (ts, pattern, channel = ALERTS) =>
      slack.waitFor(
        () => {
          const current = message(ts, channel);
          return current && pattern.test(messageToText(current)) ? current : undefined;
        },
        5_000,
        `message ${ts} to read ${pattern}`,
      ),
    waitForThread: (ts, count, channel = ALERTS) =>
      slack.waitFor(
        () => {
          const replies = thread(ts, channel);
          return replies.length >= count ? replies : undefined;
        },
        5_000,
        `${count} replies in the thread of ${ts}`,
      ),
    click: (message, actionId, userId, options) =>
      send(
        message,
        userId,
        (actions) => {
          const button = elementsOf(actions).find((e) => e.action_id === actionId && e.type === 'button');
          if (!button) throw new Error(`no button ${actionId} in ${JSON.stringify(actions)}`);
          return {
            actionId,
            blockId: String(actions.block_id),
            ...(typeof button.value === 'string' ? { value: button.value } : {}),
            text: String((button.text as { text?: string } | undefined)?.text ?? actionId),
            message: clicked(message),
          };
        },
        options,
      ),
    snooze: (message, value, userId, options) =>
      send(
        message,
        userId,
        (actions) => {
          const menu = elementsOf(actions).find((e) => e.type === 'static_select');
          const option = menu && menuOptions(menu).find((o) => o.value === value);
          if (!menu || !option) throw new Error(`no snooze option ${value} in ${JSON.stringify(actions)}`);
          return {
            actionId: String(menu.action_id),
            blockId: String(actions.block_id),
            selectedOption: option,
            placeholder: menu.placeholder,
            message: clicked(message),
          };
        },
        options,
      ),
    viewOpenedBy: (triggerId) =>
      slack.waitFor(() => slack.views().find((v) => v.triggerId === triggerId), 5_000, 'the Resolve modal'),
    submitResolve: (view, userId, note, options = {}) =>
      replicas[0]!.driver.submitView(view, {
        userId,
        userName: userId.toLowerCase(),
        ...(options.teamId !== undefined ? { teamId: options.teamId } : {}),
        values: { resolve_note: { note } },
      }),
    async command(text, userId) {
      const result = await replicas[0]!.driver.command(text, { userId, channelId: 'C0DESK' });
      const [reply] = await result.waitForResponses(1, 5_000);
      return reply!;
    },
    async restart(index = 0) {
      await replicas[index]!.close();
      replicas[index] = await start(replicas[index]!.name);
    },
    async close() {
      for (const replica of replicas) await replica.close();
      await slack.close();
      await simulator.close();
    },
  };
  return rig;
}

/** The alert controls (the actions block whose block_id is `alert:<version>:<key>`, in the attachment). */
function alertActionsBlock(message: Pick<StoredMessage, 'attachments' | 'blocks'>): Record<string, unknown> {
  const blocks = [
    ...(message.blocks ?? []),
    ...((message.attachments ?? []) as { blocks?: unknown[] }[]).flatMap((a) => a.blocks ?? []),
  ] as Record<string, unknown>[];
  const actions = blocks.find((b) => b.type === 'actions' && String(b.block_id).startsWith('alert:'));
  if (!actions) throw new Error('the message has no alert controls');
  return actions;
}

/** The controls the message offers now (action ids), none once resolved. */
export function controlsOf(message: Pick<StoredMessage, 'attachments' | 'blocks'>): string[] {
  try {
    return elementsOf(alertActionsBlock(message)).map((e) => String(e.action_id));
  } catch {
    return [];
  }
}

/** The colour bar of the alert message. */
export function colourOf(message: Pick<StoredMessage, 'attachments'>): string | undefined {
  return (message.attachments as { color?: string }[] | undefined)?.[0]?.color;
}

/** A thread reply's text. */
export const textOf = (message: StoredMessage): string => messageToText(message) || (message.text ?? '');

function elementsOf(actions: Record<string, unknown>): Record<string, unknown>[] {
  return (Array.isArray(actions.elements) ? actions.elements : []) as Record<string, unknown>[];
}
