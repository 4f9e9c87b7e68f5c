import { createTreasuryApp, type TreasuryApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { silentLogger, type Logger } from '../logger.js';
import { createPaymentsClient, type PaymentsClient } from '../payments/index.js';
import { startSimulator, type PaymentsSimulator, type SimulatorOptions } from '../simulator/index.js';
import { createSlackDriver, type SlackDriver } from './slack-driver.js';
import { startSlackStandIn, type SlackStandIn } from './slack-stand-in.js';

/** Everything running together on loopback: the payment simulator, Slack's stand-in and the real bot. */
export interface LocalStack {
  simulator: PaymentsSimulator;
  slack: SlackStandIn;
  driver: SlackDriver;
  treasury: TreasuryApp;
  payments: PaymentsClient;
  config: Config;
  /** `http://127.0.0.1:<port>` of the bot (for /healthz). */
  botUrl: string;
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
}

const BOT_TOKEN = 'xoxb-local-stack-token';
const SIGNING_SECRET = 'local-stack-signing-secret';

/**
 * Starts the simulator, the Slack stand-in and the bot in HTTP mode, wired to each other, plus a driver that
 * sends signed commands and clicks. Used by the tests and the local demo.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const simulator = await startSimulator({ quiet: true, ...options.simulator });
  const slack = await startSlackStandIn({ botToken: BOT_TOKEN });
  const config = loadConfig({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    DATA_FILE: './data/local-stack.json',
    ...(typeof options.env === 'function' ? options.env(simulator) : options.env),
  });
  const logger = options.logger ?? silentLogger;
  const payments = createPaymentsClient({
    baseUrl: config.paymentsApiUrl,
    apiKey: config.paymentsApiKey,
    logger,
    timeoutMs: options.paymentsTimeoutMs,
    // Keep retries quick: tests inject failures and should not wait seconds for back-off.
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
  });
  const treasury = createTreasuryApp({ config, payments, logger, host: '127.0.0.1', slackRetries: 0 });
  const { port } = await treasury.start();
  const botUrl = `http://127.0.0.1:${port}`;
  const driver = createSlackDriver({ eventsUrl: `${botUrl}/slack/events`, signingSecret: SIGNING_SECRET, standIn: slack });
  return {
    simulator,
    slack,
    driver,
    treasury,
    payments,
    config,
    botUrl,
    async close() {
      await treasury.stop();
      await slack.close();
      await simulator.close();
    },
  };
}
