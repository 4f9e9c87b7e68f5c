import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../../../dev/simulator/index.js';
import { type SlackStandIn, startSlackStandIn } from '../../../support/rig/slack-stand-in.js';
import { runBot } from '../../../support/run-bot.js';

const TOKEN = 'xoxb-poller-startup-token';

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: TOKEN });
});
afterAll(async () => {
  await slack.close();
  await simulator.close();
});

/** Starts the bot, waits for the line saying whether the poller is on, then stops it with SIGTERM. */
function startAndStop(extraEnv: Record<string, string>) {
  return runBot(
    {
      PAYMENTS_API_URL: simulator.url,
      PAYMENTS_API_KEY: simulator.apiKey,
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: 'poller-startup-secret',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      ...extraEnv,
    },
    { untilStderr: /alert poller (on|off)/, thenSignal: 'SIGTERM' },
  );
}

describe('start-up and the alert poller', () => {
  it('says the poller is off when ALERT_CHANNEL is unset', async () => {
    const result = await startAndStop({});
    expect(result.stderr).toContain('alert poller off: ALERT_CHANNEL is not set');
    expect(result.code).toBe(0);
  });

  it('starts the schedule when ALERT_CHANNEL is set, saying where and when; SIGTERM still stops cleanly', async () => {
    const result = await startAndStop({ ALERT_CHANNEL: 'C0ALERTS', POLL_SCHEDULE: '0 0 1 1 *' });
    expect(result.stderr).toMatch(
      /alert poller on: posting to C0ALERTS on schedule "0 0 1 1 \*"; next poll \d{4}-01-01T00:00:00/,
    );
    expect(result.stderr).toContain('received SIGTERM, shutting down');
    expect(result.code).toBe(0);
  });
});
