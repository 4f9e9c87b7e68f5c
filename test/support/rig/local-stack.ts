import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PaymentsSimulator, type SimulatorOptions, startSimulator } from '../../../dev/simulator/index.js';
import { createTreasuryApp, type TreasuryApp } from '../../../src/app.js';
import { type Config, loadConfig } from '../../../src/config.js';
import { ROUTE_KINDS } from '../../../src/features/alerts/routing.js';
import type { FollowPolicy } from '../../../src/features/swaps/index.js';
import { type Logger, silentLogger } from '../../../src/logger.js';
import { createAppMetrics } from '../../../src/metrics/index.js';
import { createPaymentsClient, type PaymentsClient } from '../../../src/payments/index.js';
import { type BotStore, openBotStore } from '../../../src/store/lowdb/index.js';
import { createSlackDriver, type SlackDriver } from './slack-driver.js';
import { type SlackStandIn, type SlackStandInOptions, startSlackStandIn } from './slack-stand-in.js';

/** Everything running together on loopback: the payment simulator, Slack's stand-in and the real bot. */
export interface LocalStack {
  simulator: PaymentsSimulator;
  slack: SlackStandIn;
  driver: SlackDriver;
  treasury: TreasuryApp;
  store: BotStore;
  payments: PaymentsClient;
  config: Config;
  /** `http://127.0.0.1:<port>` of the bot (for /healthz). */
  botUrl: string;
  /**
   * Stops the bot and starts a new one on the same state file, as a process restart would. (A crash is a real
   * process killed with SIGKILL: see test/support/bot-process.ts.)
   */
  restartBot(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/** Options of startLocalStack: extra environment for the bot, and simulator settings. */
export interface LocalStackOptions {
  /** Extra bot environment; a function gets the started simulator (e.g. to pick one of its other keys). */
  env?: Record<string, string> | ((simulator: PaymentsSimulator) => Record<string, string>);
  simulator?: SimulatorOptions;
  logger?: Logger;
  /** Per-attempt timeout of payment API calls. */
  paymentsTimeoutMs?: number;
  swapFollow?: FollowPolicy;
  /** How the alert poller waits between posts; default: no wait (tests need not spend a second per alert). */
  alertSleep?: (ms: number) => Promise<void>;
  /**
   * Slack stand-in settings: its conversations and members, whether the app has chat:write.public, and the Enterprise
   * Grid organisation of its workspace.
   */
  slack?: Pick<SlackStandInOptions, 'conversations' | 'chatWritePublic' | 'usergroups' | 'enterpriseId'>;
  /** How long the bot's stop() waits for work under way (default the app's SHUTDOWN_BUDGET_MS). */
  shutdownBudgetMs?: number;
  /**
   * The daily balance snapshot's timer (the app's default: at start, then every 60 s); default 0 here, so the
   * payment-API requests a test counts are its own (a test runs `treasury.snapshots.check()` by hand).
   */
  snapshotCheckEveryMs?: number;
}

const BOT_TOKEN = 'xoxb-local-stack-token';
const SIGNING_SECRET = 'local-stack-signing-secret';

/**
 * Starts the simulator, the Slack stand-in and the bot in HTTP mode, wired to each other, plus a driver that
 * sends signed commands and clicks. Used by the tests and the local demo.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const simulator = await startSimulator({ quiet: true, ...options.simulator });
  const slack = await startSlackStandIn({ botToken: BOT_TOKEN, ...options.slack });
  const baseEnv = {
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    DATA_FILE: join(mkdtempSync(join(tmpdir(), 'treasury-state-')), 'state.json'),
    ...(typeof options.env === 'function' ? options.env(simulator) : options.env),
  };
  let config = loadConfig(baseEnv);
  const logger = options.logger ?? silentLogger;
  // One registry for the stack, as for a process: the payment client and each (re)started app write to it.
  const metrics = createAppMetrics({ alertKinds: ROUTE_KINDS });
  const payments = createPaymentsClient({
    metrics: metrics.metrics,
    baseUrl: config.paymentsApiUrl,
    apiKey: config.paymentsApiKey,
    logger,
    timeoutMs: options.paymentsTimeoutMs,
    // Keep retries quick: tests inject failures and should not wait seconds for back-off.
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
  });
  // The bot's clock is the simulator's, so advancing simulator time (estimate expiry…) moves both.
  const now = () => new Date(simulator.now());

  const startBot = async () => {
    const store = await openBotStore(config.dataFile, logger, now);
    const treasury = createTreasuryApp({
      config,
      payments,
      store,
      logger,
      metrics,
      now,
      host: '127.0.0.1',
      slackRetries: 0,
      swapFollow: options.swapFollow ?? { intervalMs: 50, maxDurationMs: 30 * 60_000 },
      alertSleep: options.alertSleep ?? (async () => undefined),
      snapshotCheckEveryMs: options.snapshotCheckEveryMs ?? 0,
      ...(options.shutdownBudgetMs !== undefined ? { shutdownBudgetMs: options.shutdownBudgetMs } : {}),
    });
    const { port } = await treasury.start();
    const botUrl = `http://127.0.0.1:${port}`;
    const driver = createSlackDriver({
      eventsUrl: `${botUrl}/slack/events`,
      signingSecret: SIGNING_SECRET,
      standIn: slack,
    });
    return { store, treasury, botUrl, driver };
  };

  const stack: LocalStack = {
    simulator,
    slack,
    payments,
    config,
    ...(await startBot()),
    async restartBot(env) {
      await stack.treasury.stop();
      await stack.store.close();
      // A redeployment with changed configuration (the state file stays).
      if (env) stack.config = config = loadConfig({ ...baseEnv, ...env });
      Object.assign(stack, await startBot());
    },
    async close() {
      await stack.treasury.stop();
      await stack.store.close();
      await slack.close();
      await simulator.close();
    },
  };
  return stack;
}
