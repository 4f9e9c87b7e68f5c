// Invoices that report back, end to end: the real app (createTreasuryApp, in this process) on the state file or on
// PostgreSQL, the payment API simulator and the Slack stand-in; `/treasury invoice …` and "Share in channel" sent as
// Slack sends them (signed HTTP), polls started by hand, and a restart that opens the same store in a new app.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type Replica, type StoreChoice, startReplica } from '../support/replica.js';
import { blocksToText, messageToText } from '../support/rig/blocks-text.js';
import {
  type RecordedResponse,
  type SlackStandIn,
  type StoredMessage,
  startSlackStandIn,
} from '../support/rig/slack-stand-in.js';

const ALERTS = 'C0ALERTS';
/** Where invoices are shared. */
export const OPS = 'C0OPS';
export const AVERY = 'U0AVERY';
export const BLAKE = 'U0BLAKE';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
const TOKEN = 'xoxb-invoices-e2e';
const SECRET = 'invoices-e2e-signing-secret';
const LEASE_KEY = 0x696e_7672_6967_3136n;

/** An invoice made with the command: its id and the private reply. */
export interface MadeInvoice {
  id: string;
  reply: RecordedResponse;
  text: string;
}

export interface InvoiceRig {
  simulator: PaymentsSimulator;
  slack: SlackStandIn;
  config: Config;
  logs: string[];
  replica(): Replica;
  /** A poll of the alert poller, with its follow-up (the invoices are followed there). */
  poll(): Promise<void>;
  /** Moves both clocks (the bot's is the simulator's) by `ms`, then polls. */
  pollAfter(ms: number): Promise<void>;
  /** `/treasury invoice <text>` as `userId`. */
  invoice(text: string, userId?: string): Promise<MadeInvoice>;
  /** "Share in channel" on the invoice's private reply, as `userId`, in `channel`: the copy posted there. */
  share(made: MadeInvoice, userId?: string, channel?: string): Promise<StoredMessage>;
  /** The direct messages the bot sent `userId`, oldest first. */
  dms(userId: string): StoredMessage[];
  /** `invoice-info` requests the simulator answered for `id`. */
  checksOf(id: string): number;
  /** Closes the app (the store too) and starts a new one on the same store: a process restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

export async function startInvoiceRig(options: {
  store: StoreChoice;
  env?: Record<string, string>;
  /** Scopes the app was installed without (the stand-in then refuses as Slack does). */
  slack?: { imHistory?: boolean };
}): Promise<InvoiceRig> {
  const simulator = await startSimulator({ quiet: true, seed: false });
  const slack = await startSlackStandIn({
    ...options.slack,
    botToken: TOKEN,
    conversations: [
      { id: ALERTS, kind: 'public', name: 'treasury-alerts', members: [AVERY, BLAKE] },
      { id: OPS, kind: 'public', name: 'ops', members: [AVERY, BLAKE, 'U_BOT'] },
    ],
  });
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const config = loadConfig({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    DATA_FILE: join(mkdtempSync(join(tmpdir(), 'invoices-e2e-')), 'state.json'),
    ALERT_CHANNEL: ALERTS,
    // Never fires during a test: polls are started by hand (runNow), through the same guard.
    POLL_SCHEDULE: '0 0 1 1 *',
    ...options.env,
  });
  const payments = createPaymentsClient({
    baseUrl: config.paymentsApiUrl,
    apiKey: config.paymentsApiKey,
    logger,
    timeoutMs: 2_000,
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 },
  });
  // The bot's clock is the simulator's: advancing simulator time moves both (ages, expiry, Retry-After).
  const now = () => new Date(simulator.now());
  const start = () =>
    startReplica({
      name: 'a',
      store: options.store,
      config,
      payments,
      logger,
      now,
      slack,
      signingSecret: SECRET,
      leaseKey: LEASE_KEY,
      app: { alertSleep: async () => undefined },
    });
  let replica = await start();

  const rig: InvoiceRig = {
    simulator,
    slack,
    config,
    logs,
    replica: () => replica,
    async poll() {
      await replica.treasury.alerts!.runNow();
    },
    async pollAfter(ms) {
      simulator.advanceTime(ms);
      await rig.poll();
    },
    async invoice(text, userId = AVERY) {
      const result = await replica.driver.command(`invoice ${text}`, { userId, channelId: 'C0DESK' });
      const [reply] = await result.waitForResponses(1, 5_000);
      const shown = `${reply!.text ?? ''}\n${blocksToText(reply!.blocks ?? [])}`;
      const id = UUID.exec(reply!.text ?? '')?.[0];
      if (!id) throw new Error(`no invoice id in the reply: ${shown}`);
      return { id, reply: reply!, text: shown };
    },
    async share(made, userId = BLAKE, channel = OPS) {
      const before = slack.messages(channel).length;
      const result = await replica.driver.clickButtonIn(
        { ts: '1700000000.000100', blocks: made.reply.blocks ?? [] },
        'share_in_channel',
        { userId, channelId: channel },
      );
      if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status}`);
      const copy = await slack.waitFor(() => slack.messages(channel)[before], 5_000, `the shared copy in ${channel}`);
      // The copy is recorded after its post: wait for the record, so a poll that follows can rewrite it.
      const deadline = Date.now() + 5_000;
      while (!(await replica.store.invoices.listInvoices()).some((r) => r.shared.some((c) => c.ts === copy.ts))) {
        if (Date.now() > deadline) throw new Error(`the shared copy ${copy.ts} was not recorded`);
        await sleep(10);
      }
      return copy;
    },
    dms: (userId) =>
      slack.messages().filter((m) => slack.conversationKind(m.channel) === 'im' && slack.isMember(m.channel, userId)),
    checksOf: (id) => simulator.requests.filter((r) => r.operation === 'getInvoice' && r.query.id === id).length,
    async restart() {
      await replica.close();
      replica = await start();
    },
    async close() {
      await replica.close();
      await slack.close();
      await simulator.close();
    },
  };
  return rig;
}

/** What a person sees in a message. */
export const textOf = (message: StoredMessage): string => messageToText(message) || (message.text ?? '');
