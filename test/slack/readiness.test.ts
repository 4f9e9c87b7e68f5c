// GET /readyz through the real app in HTTP mode: ready while the state file's folder is usable, 503 "store" when it
// is gone, ready again once it is back; a store whose check hangs answers 503 "timeout" within the bound, never a
// hanging probe. /healthz (liveness) stays 200 throughout: it asks no dependency.
import { mkdirSync, mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { createTreasuryApp, type TreasuryApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type BotStore, openBotStore } from '../../src/store/lowdb/index.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';

const BOT_TOKEN = 'xoxb-readiness-token';
const READY = { ready: true, checks: { store: 'ok', slack: 'ok', config: 'ok' } };

let simulator: PaymentsSimulator;
let slack: SlackStandIn;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ quiet: true });
  slack = await startSlackStandIn({ botToken: BOT_TOKEN });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await slack.close();
  await simulator.close();
});

/** The bot in HTTP mode on `store` (a wrapper may replace its health check); its URL and log lines. */
async function startBot(
  dataFile: string,
  wrap: (store: BotStore) => BotStore = (store) => store,
): Promise<{ url: string; logs: string[]; treasury: TreasuryApp }> {
  const config = loadConfig({
    PAYMENTS_API_URL: simulator.url,
    PAYMENTS_API_KEY: simulator.apiKey,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: 'readiness-secret',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
  });
  const store = await openBotStore(dataFile);
  cleanups.push(() => store.close());
  const logs: string[] = [];
  const treasury = createTreasuryApp({
    config,
    payments: createPaymentsClient({ baseUrl: config.paymentsApiUrl, apiKey: config.paymentsApiKey }),
    store: wrap(store),
    logger: createLogger('info', (line) => logs.push(line)),
    host: '127.0.0.1',
    slackRetries: 0,
  });
  cleanups.push(() => treasury.stop());
  const { port } = await treasury.start();
  return { url: `http://127.0.0.1:${port}`, logs, treasury };
}

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as { checks: Record<string, string> } };
};

describe('GET /readyz on the state file', () => {
  it('503 "store" while the state file\'s folder is gone, ready again once it is back; /healthz stays 200', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'readiness-')), 'data');
    mkdirSync(folder);
    const bot = await startBot(join(folder, 'state.json'));
    expect(await get(`${bot.url}/readyz`)).toEqual({ status: 200, body: READY });

    renameSync(folder, `${folder}-away`);
    expect(await get(`${bot.url}/readyz`)).toEqual({
      status: 503,
      body: { ready: false, checks: { store: 'failing', slack: 'ok', config: 'ok' } },
    });
    expect(await get(`${bot.url}/healthz`)).toEqual({ status: 200, body: { ok: true } });
    // The detail goes to the log, not to the public answer.
    expect(
      bot.logs.some((line) => line.includes('readiness: the store cannot be used') && line.includes('ENOENT')),
    ).toBe(true);

    renameSync(`${folder}-away`, folder);
    expect(await get(`${bot.url}/readyz`)).toEqual({ status: 200, body: READY });
  });

  it('a store whose check hangs: 503 "timeout" within about a second, never a hanging probe', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'readiness-')), 'state.json');
    let checks = 0;
    const bot = await startBot(dataFile, (store) =>
      Object.assign(Object.create(store) as BotStore, {
        health: () => {
          checks += 1;
          return new Promise<never>(() => undefined);
        },
      }),
    );
    const asked = Date.now();
    expect(await get(`${bot.url}/readyz`)).toEqual({
      status: 503,
      body: { ready: false, checks: { store: 'timeout', slack: 'ok', config: 'ok' } },
    });
    expect(Date.now() - asked).toBeLessThan(2_500);
    // Probes meanwhile join the check under way: a hung database holds one query, not one connection per probe.
    expect((await get(`${bot.url}/readyz`)).body.checks.store).toBe('timeout');
    expect(checks).toBe(1);
    expect(await get(`${bot.url}/healthz`)).toEqual({ status: 200, body: { ok: true } });
  });
});
