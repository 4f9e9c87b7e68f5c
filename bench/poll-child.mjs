// The poller of `npm run bench`, alone in its own process so that its peak RSS is the poller's, not the
// simulator's. The parent (bench/run.mjs) owns the simulator, its clock and the Slack stand-in, and sends:
// { type: 'poll', now } → runs one poll at that simulator time; { type: 'walking' } → a catch-up walk is under way;
// { type: 'write', now } → times one state write; { type: 'close' }.

import { createAlertPoster, pollOnce } from '../dist/src/features/alerts/poller/index.js';
import { createLogger } from '../dist/src/logger.js';
import { createPaymentsClient } from '../dist/src/payments/index.js';
import { createSlackGateway, createSlackWebClient } from '../dist/src/slack/index.js';
import { openBotStore } from '../dist/src/store/lowdb/index.js';

const { simUrl, apiKey, slackApiUrl, token, file, channel, lookbackMs } = JSON.parse(process.argv[2]);
let simNow = Date.now();
const now = () => new Date(simNow);
const logger = createLogger('error', () => {});
const store = await openBotStore(file, logger, now);
const payments = createPaymentsClient({
  baseUrl: simUrl,
  apiKey,
  timeoutMs: 30_000,
  retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 },
});
const slack = createAlertPoster(
  createSlackGateway({ client: createSlackWebClient({ token, slackApiUrl, timeoutMs: 5_000 }), now: () => simNow }),
);
const pacing = { lastPostMs: undefined };

process.on('message', async (message) => {
  if (message.now !== undefined) simNow = message.now;
  if (message.type === 'poll') {
    const started = performance.now();
    const report = await pollOnce({
      payments,
      store,
      slack,
      channel,
      now,
      lookbackMs,
      logger,
      sleep: async () => {},
      pacing,
    });
    const wallMs = performance.now() - started;
    process.send({
      wallMs,
      sourcesOk: Object.values(report.sources).every((s) => s.ok),
      sources: report.sources,
      queued: report.queued,
    });
  } else if (message.type === 'walking') {
    const alerts = await store.alerts.readAlerts();
    process.send(
      Object.values(alerts.sources).some((source) =>
        Object.values(source.lists ?? {}).some((list) => list?.walk !== undefined),
      ),
    );
  } else if (message.type === 'write') {
    try {
      const started = performance.now();
      await store.alerts.commitPoll(() => ({ queued: 0, newFailures: {} }));
      process.send(performance.now() - started);
    } catch (error) {
      process.send(`n/a (${error.message})`);
    }
  } else if (message.type === 'close') {
    await store.close();
    process.exit(0);
  }
});
process.send('ready');
