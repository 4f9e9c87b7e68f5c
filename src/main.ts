/**
 * The product's entry point (`node dist/src/main.js`, what a deployment runs): configuration → payments client →
 * Slack app. Every start-up problem ends the process with exit code 1 and readable lines, never an unhandled
 * rejection. `npm start` goes through dev/start.ts, which opens the local workspace when nothing is configured.
 */
import { createTreasuryApp, StartupError } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { describeConfig, logSecrets } from './config-display.js';
import { ROUTE_KINDS } from './features/alerts/routing.js';
import { createLogger, errorFields } from './logger.js';
import { createAppMetrics } from './metrics/index.js';
import { createPaymentsClient } from './payments/index.js';
import { ACCEPT_EMPTY_STATE_FLAG, SET_ASIDE_DAMAGED_RECORDS_FLAG } from './store/lowdb/state-file.js';
import { type OpenedStore, openStore, StoreOpenError } from './store/open.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Cannot start: the configuration has ${error.problems.length} problem(s):\n`);
      for (const problem of error.problems) process.stderr.write(`  ${problem}\n`);
      process.stderr.write('See .env.example for every variable.\n');
      process.exit(1);
    }
    throw error;
  }

  const logger = createLogger(config.logLevel, undefined, {
    format: config.logFormat,
    replica: config.replicaName,
    secrets: logSecrets(config),
  });
  // One failed promise somewhere (a library's request handler, a late Slack call) must not end the bot for
  // everyone: log it loudly and keep serving. Exceptions thrown synchronously still end the process.
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled promise rejection; the bot keeps running', { error: errorFields(reason) });
  });
  logger.info('starting treasury bot', describeConfig(config));
  // One registry for the process: the payment client and the app write to it, GET /metrics reads it.
  const metrics = createAppMetrics({ alertKinds: ROUTE_KINDS });
  const payments = createPaymentsClient({
    ...{ baseUrl: config.paymentsApiUrl, apiKey: config.paymentsApiKey, logger },
    metrics: metrics.metrics,
  });
  let opened: OpenedStore;
  try {
    opened = await openStore(config, logger, {
      acceptEmptyState: process.argv.includes(ACCEPT_EMPTY_STATE_FLAG),
      setAsideDamagedRecords: process.argv.includes(SET_ASIDE_DAMAGED_RECORDS_FLAG),
    });
  } catch (error) {
    if (!(error instanceof StoreOpenError)) throw error;
    process.stderr.write(`Cannot start: ${error.message}\n`);
    process.exit(1);
  }
  for (const warning of opened.warnings) process.stderr.write(`${warning}\n`);
  const { store, leadership } = opened;
  let stopping = false;
  // Stops cleanly (the work under way finishes, within the shutdown budget; only then the lease and the store are
  // closed), then exits with `exitCode`.
  const shutdown = (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${reason}, shutting down`);
    treasury
      .stop()
      .then(() => leadership?.close())
      .then(() => store.close())
      .then(() => process.exit(exitCode))
      .catch((error: unknown) => {
        logger.error('error while shutting down', { error: errorFields(error) });
        process.exit(1);
      });
  };
  const treasury = createTreasuryApp({
    config,
    payments,
    store,
    logger,
    metrics,
    ...(leadership ? { leadership } : {}),
    // Slack refused the Socket Mode connection for good: one plain line, exit 1, so an orchestrator restarts the
    // bot and a person sees why.
    onFatal: (problem) => {
      process.stderr.write(`Stopping: ${problem}\n`);
      shutdown('Slack refused the Socket Mode connection', 1);
    },
  });

  let port: number;
  let socket: 'connected' | 'reconnecting' | undefined;
  try {
    ({ port, socket } = await treasury.start());
  } catch (error) {
    process.stderr.write(`Cannot start: ${error instanceof StartupError ? error.message : String(error)}\n`);
    process.exit(1);
  }

  // Before the "started" lines: whoever waits for them may signal at once.
  process.on('SIGINT', () => shutdown('received SIGINT'));
  process.on('SIGTERM', () => shutdown('received SIGTERM'));

  if (!config.slackAppToken) logger.info(`listening for Slack on port ${port} (POST /slack/events, GET /healthz)`);
  else if (socket === 'connected') logger.info(`connected to Slack in Socket Mode; /healthz on port ${port}`);
  else
    logger.warn(`not connected to Slack in Socket Mode yet; reconnecting in the background; /healthz on port ${port}`);
  if (treasury.alerts) {
    const next = (await treasury.alerts.status()).nextRun;
    logger.info(
      `alert poller on: posting to ${treasury.alerts.channel} on schedule "${config.pollSchedule}"; next poll ${next ? next.toISOString() : 'not scheduled'}`,
    );
  } else {
    logger.info('alert poller off: ALERT_CHANNEL is not set, so no failure alerts will be posted');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
