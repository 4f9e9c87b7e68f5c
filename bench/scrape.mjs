// npm run bench, the scrape part (BENCH_ONLY=scrape runs it alone): the bot on the state file (the bench uses no
// PostgreSQL), started on a file holding a long alert history, then GET /metrics again and again. The history: the
// alert trail (kept 400 days, what the audit export reads: 1M entries in the full run) and, in the hot state, the
// owned alerts a busy deployment keeps (ALERT_POLICY: at most 200 not resolved, the resolved ones for 7 days; here
// 2,500 alerts a day). Measures the bot's start on it, each scrape's time and bytes, and, in this process on a copy
// of the file, the open-alerts reading the scrape makes (the store's count) against the whole bookkeeping read back.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../dist/dev/simulator/index.js';
import { openAlertCounts } from '../dist/src/features/alerts/owned.js';
import { createLogger } from '../dist/src/logger.js';
import { openBotStore } from '../dist/src/store/lowdb/index.js';
import { startSlackStandIn } from '../node_modules/.bench-build/test/support/rig/slack-stand-in.js';

const DAY = 86_400_000;
const TOKEN = 'xoxb-bench-token';
const iso = (ms) => new Date(ms).toISOString();

/** One owned alert about a failed withdrawal, posted at `at`, with the life given. */
function ownedAlert(n, at, life) {
  const id = randomUUID();
  const key = `withdrawal:${id}`;
  return {
    key,
    kind: 'withdrawal_failed',
    objects: [key],
    channel: 'C0ALERTS',
    ts: `${Math.floor(at / 1000)}.${String(n % 1_000_000).padStart(6, '0')}`,
    postedAt: iso(at),
    subject: {
      type: 'failure',
      facts: {
        kind: 'withdrawal',
        id,
        status: 'failed',
        createdAt: iso(at - 60_000),
        symbol: 'USDT',
        decimals: 6,
        network: { title: 'Ethereum', symbol: 'ETH' },
        amount: '1500000000',
        amountInUsd: '1500.00',
        address: `0x${'a'.repeat(40)}`,
        txHash: null,
      },
    },
    life: { version: 1, openedAt: iso(at), remindersSent: { unacknowledged: 0, stale: false }, ...life },
    shown: 1,
    thread: [],
    nextSeq: 2,
  };
}

/** The state file: `trailEntries` trail entries over 400 days, and the owned alerts of the last 7 days. */
function alertHistory(file, { trailEntries, perDay }) {
  const now = Date.now();
  const owned = {};
  let n = 0;
  // Not resolved: the most the bot keeps (200): open, acknowledged, snoozed.
  for (let i = 0; i < 200; i++) {
    const at = now - (i + 1) * 60_000;
    const life =
      i % 3 === 0
        ? { state: 'open' }
        : i % 3 === 1
          ? { state: 'acknowledged', acknowledgedBy: 'U0AVERY', acknowledgedAt: iso(at + 60_000) }
          : { state: 'open', snoozedUntil: iso(now + DAY), snoozedBy: 'U0AVERY' };
    const alert = ownedAlert(n++, at, life);
    owned[alert.key] = alert;
  }
  // Resolved within the last 7 days: kept in the hot state until then.
  for (let i = 0; i < 7 * perDay; i++) {
    const at = now - 7 * DAY + i * (DAY / perDay);
    const alert = ownedAlert(n++, at, {
      state: 'resolved',
      resolvedAt: iso(at + 600_000),
      resolution: { by: 'facts', reason: 'the withdrawal succeeded' },
    });
    owned[alert.key] = alert;
  }
  // The trail: posted and resolved, oldest first, over the last 400 days less a day (inside the retention).
  const alertTrail = [];
  const span = 399 * DAY;
  for (let seq = 1; seq <= trailEntries; seq++) {
    const at = now - span + Math.floor((seq * span) / trailEntries);
    const alertKey = `withdrawal:${String(Math.ceil(seq / 2)).padStart(12, '0')}`;
    alertTrail.push(
      seq % 2 === 1
        ? {
            at: iso(at),
            alertKey,
            kind: 'withdrawal_failed',
            event: 'posted',
            about: 'a failed withdrawal of 1,500 USDT on Ethereum',
            asset: 'USDT@ETH',
            amount: '1500',
            amountUnits: '1500000000',
            usd: '1500.00',
            channel: 'C0ALERTS',
            ts: `${Math.floor(at / 1000)}.000100`,
            seq,
          }
        : { at: iso(at), alertKey, kind: 'withdrawal_failed', event: 'resolved_by_facts', reason: 'it succeeded', seq },
    );
  }
  writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: {}, alerts: { owned }, alertTrail }));
  return { owned: Object.keys(owned).length, unresolved: 200 };
}

/** Starts the bot (as deployed) and resolves with its port once it listens; a long history takes a while to load. */
function startBot(args, env, timeoutMs) {
  const child = spawn(process.execPath, args, {
    cwd: mkdtempSync(join(tmpdir(), 'bench-')),
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${stderr.slice(-2000)}`)), timeoutMs);
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${stderr.slice(-2000)}`)));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const port = /listening for Slack on port (\d+)/.exec(stderr)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({
          url: `http://127.0.0.1:${port}`,
          stop: () => {
            child.removeAllListeners('exit');
            const exited = new Promise((done) => child.once('exit', done));
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
  });
}

/** The median of `times` runs of `work` (ms). */
async function medianMs(work, times) {
  const took = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await work();
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  return took[Math.floor(took.length / 2)];
}

/** GET /metrics against the bot started on a long alert history. */
export async function scrapeBench({ nodeFlags, root, quick, pct, round }) {
  const trailEntries = quick ? 100_000 : 1_000_000;
  const perDay = 2_500;
  const scrapes = quick ? 20 : 100;
  const file = join(mkdtempSync(join(tmpdir(), 'bench-scrape-')), 'state.json');
  const { owned, unresolved } = alertHistory(file, { trailEntries, perDay });
  const stateFileBytes = statSync(file).size;
  // The open-alerts reading, in this process on a copy (one store per file): the count the scrape makes, and the
  // whole bookkeeping read back and counted (what the scrape read before).
  const copy = join(mkdtempSync(join(tmpdir(), 'bench-scrape-copy-')), 'state.json');
  copyFileSync(file, copy);
  const store = await openBotStore(
    copy,
    createLogger('error', () => {}),
    () => new Date(),
  );
  const openAlertsReadMs = {
    count: round(await medianMs(() => store.alerts.countOpenAlerts(new Date()), 21), 3),
    wholeBookkeeping: round(
      await medianMs(async () => openAlertCounts((await store.alerts.readAlerts()).owned, new Date()), 21),
      3,
    ),
  };
  await store.close();
  rmSync(join(copy, '..'), { recursive: true, force: true });

  const sim = await startSimulator({ quiet: true, rateLimitPerSecond: 100_000 });
  const slack = await startSlackStandIn({ botToken: TOKEN });
  const started = performance.now();
  const bot = await startBot(
    [...nodeFlags, join(root, 'dist/src/main.js')],
    {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: 'bench-signing-secret',
      SLACK_API_URL: slack.apiUrl,
      LOG_LEVEL: 'info',
      PAYMENTS_API_URL: sim.url,
      PAYMENTS_API_KEY: sim.apiKey,
      DATA_FILE: file,
      // The Slack port serves /metrics only to a scraper with the token (HTTP mode).
      METRICS_TOKEN: 'bench-metrics-token',
    },
    600_000,
  );
  const startMs = Math.round(performance.now() - started);
  const took = [];
  let scrapeBytes = 0;
  let openSeries = '';
  for (let i = 0; i < scrapes; i++) {
    const at = performance.now();
    const response = await fetch(`${bot.url}/metrics`, { headers: { authorization: 'Bearer bench-metrics-token' } });
    const body = Buffer.from(await response.arrayBuffer());
    took.push(performance.now() - at);
    if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
    scrapeBytes = body.length;
    openSeries = body
      .toString('utf8')
      .split('\n')
      .filter((line) => line.startsWith('treasury_alerts_open{'))
      .join(', ');
  }
  await bot.stop();
  rmSync(join(file, '..'), { recursive: true, force: true }); // hundreds of MB in the full run
  await slack.close();
  await sim.close();
  took.sort((a, b) => a - b);
  return {
    setup: { trailEntries, ownedPerDay: perDay, owned, unresolved, scrapes },
    stateFileBytes,
    startMs,
    scrapeMs: { p50: round(pct(took, 50), 2), p95: round(pct(took, 95), 2), max: round(took.at(-1), 2) },
    scrapeBytes,
    openSeries,
    openAlertsReadMs,
  };
}
