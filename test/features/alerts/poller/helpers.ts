import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PaymentsSimulator, startSimulator } from '../../../../dev/simulator/index.js';
import {
  type ChannelPacing,
  createAlertPoster,
  type PollReport,
  pollOnce,
} from '../../../../src/features/alerts/poller/index.js';
import type { AlertRoutes } from '../../../../src/features/alerts/routing.js';
import { createLogger } from '../../../../src/logger.js';
import { createPaymentsClient, type PaymentsClient } from '../../../../src/payments/index.js';
import { createSlackGateway, createSlackWebClient } from '../../../../src/slack/index.js';
import { type BotStore, openBotStore } from '../../../../src/store/lowdb/index.js';
import { messageToText } from '../../../support/rig/blocks-text.js';
import { type SlackStandIn, type StoredMessage, startSlackStandIn } from '../../../support/rig/slack-stand-in.js';

export const CHANNEL = 'C0ALERTS';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
const TOKEN = 'xoxb-poller-test-token';

/** The real poller function wired to the simulator over HTTP, the Slack stand-in and a real state file. */
export interface PollerRig {
  sim: PaymentsSimulator;
  slack: SlackStandIn;
  payments: PaymentsClient;
  store: BotStore;
  file: string;
  /** Every wait the poller asked for between posts (none is really waited). */
  sleeps: number[];
  logs: string[];
  poll(): Promise<PollReport>;
  /** Closes the state file and opens it again with a fresh poster: what a process restart does (with its flags). */
  restart(flags?: { setAsideDamagedRecords?: boolean }): Promise<void>;
  /** Messages posted to the alert channel, oldest first. */
  messages(): StoredMessage[];
  /** What a person sees in each message. */
  texts(): string[];
  fileSize(): number;
  close(): Promise<void>;
}

export interface PollerRigOptions {
  seed?: boolean;
  lookbackMs?: number;
  apiKey?: (sim: PaymentsSimulator) => string;
  /** Attempts per API read (1: a fault fails the read at once, so each poll uses one fault per list). */
  maxAttempts?: number;
  /** The bot's clock minus the API's (the simulator's): clocks that disagree. */
  clockOffsetMs?: number;
  /** STUCK_*_AFTER (none: rows stuck in pending raise no alert). */
  stuckAfterMs?: { withdrawal: number; task: number; gas: number };
  /** Watch the balance thresholds kept in the state file (as the app does). */
  thresholds?: boolean;
  /** ALERT_ROUTES (none: every alert to CHANNEL). */
  routes?: AlertRoutes;
}

export async function startPollerRig(options: PollerRigOptions = {}): Promise<PollerRig> {
  const sim = await startSimulator({ quiet: true, seed: options.seed ?? false });
  const slack = await startSlackStandIn({ botToken: TOKEN });
  const file = join(mkdtempSync(join(tmpdir(), 'poller-')), 'state.json');
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const payments = createPaymentsClient({
    baseUrl: sim.url,
    apiKey: options.apiKey?.(sim) ?? sim.apiKey,
    timeoutMs: 500,
    retry: { maxAttempts: options.maxAttempts ?? 1, baseDelayMs: 1, maxDelayMs: 5 },
  });
  const now = () => new Date(sim.now() + (options.clockOffsetMs ?? 0));
  const sleeps: number[] = [];
  let store = await openBotStore(file, logger, now);
  // The same posting path as the app: the Slack gateway on a WebClient that leaves every decision to it, seen
  // through the alert poster (never waits). A restart builds a fresh gateway, as a new process would.
  const makePoster = () =>
    createAlertPoster(
      createSlackGateway({
        client: createSlackWebClient({ token: TOKEN, slackApiUrl: slack.apiUrl, timeoutMs: 500 }),
        now: () => now().getTime(),
      }),
    );
  let poster = makePoster();
  let pacing: ChannelPacing = { lastPostMs: undefined };

  const rig: PollerRig = {
    sim,
    slack,
    payments,
    get store() {
      return store;
    },
    file,
    sleeps,
    logs,
    poll: () =>
      pollOnce({
        payments,
        store,
        slack: poster,
        channel: CHANNEL,
        now,
        lookbackMs: options.lookbackMs ?? 24 * HOUR,
        ...(options.stuckAfterMs ? { stuckAfterMs: options.stuckAfterMs } : {}),
        ...(options.thresholds ? { thresholds: () => store.balances.listThresholds() } : {}),
        ...(options.routes ? { routes: options.routes } : {}),
        logger,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        pacing,
      }),
    async restart(flags = {}) {
      await store.close();
      store = await openBotStore(file, logger, now, flags);
      poster = makePoster();
      pacing = { lastPostMs: undefined };
    },
    messages: () => slack.messages(CHANNEL),
    texts: () => slack.messages(CHANNEL).map((m) => messageToText(m)),
    fileSize: () => statSync(file).size,
    async close() {
      await store.close();
      await slack.close();
      await sim.close();
    },
  };
  return rig;
}

/** How many messages mention `id` (a failure alerted twice would show up twice). */
export function mentions(rig: PollerRig, id: string): number {
  return rig.texts().filter((text) => text.includes(id)).length;
}
