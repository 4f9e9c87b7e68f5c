// The daily digest end to end: the real app (createTreasuryApp, in this process) on the state file or on PostgreSQL
// (one or two replicas sharing a database and the poller's lease), the payment API simulator (its sample merchant)
// and the Slack stand-in, with the clock injected (the simulator's, shared by the bot and the stand-in). Checks are
// run by hand (`check`), through the same guard the 30-second timer uses.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import { DIGEST_EVENT_TYPE } from '../../src/features/digest/rules.js';
import { createLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type Replica, type StoreChoice, startReplica } from '../support/replica.js';
import {
  type RecordedResponse,
  type SlackStandIn,
  type StoredMessage,
  startSlackStandIn,
} from '../support/rig/slack-stand-in.js';

export const DIGEST_CHANNEL = 'C0DIGEST';
export const AVERY = 'U0AVERY';
export const SAM = 'U0SAM';
const TOKEN = 'xoxb-digest-e2e';
const SECRET = 'digest-e2e-signing-secret';
/** The advisory lock key of the poller's lease in these tests (each rig has its own database). */
const LEASE_KEY = 0x6469_6765_7374_3135n;

/** One running bot (a replica on PostgreSQL). */
export type DigestReplica = Replica;

export interface DigestRig {
  simulator: PaymentsSimulator;
  slack: SlackStandIn;
  replicas: DigestReplica[];
  config: Config;
  logs: string[];
  /** Sets the clock of the bot, the simulator and Slack (`2026-11-24T08:00:00Z`). */
  setClock(iso: string): void;
  /** One digest check by replica `index` (default the first). */
  check(index?: number): Promise<void>;
  /** The digests in DIGEST_CHANNEL (top-level messages carrying the digest's metadata), oldest first. */
  digests(): StoredMessage[];
  /** The replies in the thread of `ts`. */
  thread(ts: string): StoredMessage[];
  /** Stops replica `index` and starts it again on the same store (a restart, or a redeployment). */
  restart(index?: number): Promise<void>;
  /** `/treasury digest` as `userId`: the private answer. */
  command(text: string, userId: string): Promise<RecordedResponse>;
  close(): Promise<void>;
}

export interface DigestRigOptions {
  store: StoreChoice;
  /** Replica names (PostgreSQL only for more than one); default one. */
  replicas?: string[];
  env?: Record<string, string>;
  /** The clock at start (default 2026-11-24 07:00 UTC, 08:00 in Berlin: before a 09:00 Europe/Berlin digest). */
  startAt?: string;
  /** Let the app's own timer check (at start, then every 30 s) instead of checks run by hand only. */
  timer?: boolean;
}

export async function startDigestRig(options: DigestRigOptions): Promise<DigestRig> {
  const simulator = await startSimulator({ quiet: true });
  simulator.setTime(Date.parse(options.startAt ?? '2026-11-24T07:00:00Z'));
  const now = () => new Date(simulator.now());
  const slack = await startSlackStandIn({
    botToken: TOKEN,
    now: () => simulator.now(),
    conversations: [
      { id: DIGEST_CHANNEL, kind: 'public', name: 'treasury-digest', members: [AVERY, SAM] },
      { id: 'C0DESK', kind: 'public', name: 'desk', members: [AVERY, SAM] },
    ],
  });
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const dataFile = join(mkdtempSync(join(tmpdir(), 'digest-e2e-')), 'state.json');
  const config = loadConfig({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    DATA_FILE: dataFile,
    DIGEST_AT: '09:00 Europe/Berlin',
    DIGEST_CHANNEL,
    TREASURY_USERS: AVERY,
    ...options.env,
  });
  const payments = createPaymentsClient({
    baseUrl: config.paymentsApiUrl,
    apiKey: config.paymentsApiKey,
    logger,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
  });

  const start = (name: string): Promise<DigestReplica> =>
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
      app: options.timer ? {} : { digestCheckEveryMs: 0 },
    });

  const names = options.replicas ?? ['a'];
  if (names.length > 1 && options.store.kind !== 'postgres') throw new Error('replicas share PostgreSQL only');
  const replicas: DigestReplica[] = [];
  for (const name of names) replicas.push(await start(name));
  // The bot joins DIGEST_CHANNEL at start-up, in the background (files are shared only where it is a member).
  await slack.waitFor(() => slack.isMember(DIGEST_CHANNEL, slack.botUserId), 5_000, 'the bot in the digest channel');

  return {
    simulator,
    slack,
    replicas,
    config,
    logs,
    setClock: (iso) => simulator.setTime(Date.parse(iso)),
    check: (index = 0) => replicas[index]!.treasury.digest.check(),
    digests: () =>
      slack
        .messages(DIGEST_CHANNEL)
        .filter((m) => m.threadTs === undefined && m.metadata?.event_type === DIGEST_EVENT_TYPE),
    thread: (ts) => slack.messages(DIGEST_CHANNEL).filter((m) => m.threadTs === ts && m.ts !== ts),
    async restart(index = 0) {
      await replicas[index]!.close();
      replicas[index] = await start(replicas[index]!.name);
    },
    async command(text, userId) {
      const result = await replicas[0]!.driver.command(text, { userId, channelId: 'C0DESK' });
      const [reply] = await result.waitForResponses(1, 10_000);
      return reply!;
    },
    async close() {
      for (const replica of replicas) await replica.close();
      await slack.close();
      await simulator.close();
    },
  };
}
