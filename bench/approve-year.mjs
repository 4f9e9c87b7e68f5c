// npm run bench, the Approve part (BENCH_ONLY=approve runs it alone): the bot on the state file, started on a file
// holding a year of swap quotes (as a file written before quotes left the working state would), then quote → Approve
// rounds. Measures the start (which moves the quotes past the retention to the archive beside the file), the click's
// ack and the time until the message says approved, and, in this process, one fsynced write of the state file with
// the year in it against one with the 30 days that stay.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../dist/dev/simulator/index.js';
import { loadBotState } from '../dist/src/store/lowdb/bot-state.js';
import { openStore } from '../dist/src/store/lowdb/state-file.js';
import { createSlackDriver } from '../node_modules/.bench-build/test/support/rig/slack-driver.js';
import { startSlackStandIn } from '../node_modules/.bench-build/test/support/rig/slack-stand-in.js';

const DAY = 86_400_000;
const CHANNEL = 'C0TREASURY';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';

/** One ended quote of `at` (rejected, expired, or created and followed to the end), as the bot stores it. */
function endedQuote(at, n) {
  const iso = (ms) => new Date(ms).toISOString();
  const id = randomUUID();
  const base = {
    id,
    estimateId: randomUUID(),
    estimatedAt: iso(at),
    expiresAt: iso(at + 30 * 60_000),
    requestedBy: REQUESTER,
    channelId: CHANNEL,
    messageTs: `${Math.floor(at / 1000)}.${String(n % 1_000_000).padStart(6, '0')}`,
    from: { assetId: 'usdt-eth', symbol: 'USDT', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
    to: { assetId: 'usdc-eth', symbol: 'USDC', networkSymbol: 'ETH', networkTitle: 'Ethereum', decimals: 6 },
    amountFrom: '1000000000',
    estimatedAmount: '999100000',
    routeType: 'dex',
    serviceId: 'svc-1',
    history: [{ at: iso(at), event: 'quoted', by: REQUESTER }],
  };
  switch (n % 3) {
    case 0:
      return {
        ...base,
        status: 'created',
        decidedBy: APPROVER,
        decidedAt: iso(at + 60_000),
        swapId: randomUUID(),
        swapStatus: 'finished',
        amountTo: '999000000',
        hashFrom: `0x${'a'.repeat(64)}`,
        hashTo: `0x${'b'.repeat(64)}`,
        feeSummary: '0.9 USDT ($0.90)',
        followEndedAt: iso(at + 5 * 60_000),
        history: [
          ...base.history,
          { at: iso(at + 60_000), event: 'approved', by: APPROVER },
          { at: iso(at + 61_000), event: 'swap_created' },
          { at: iso(at + 5 * 60_000), event: 'swap_finished' },
        ],
      };
    case 1:
      return {
        ...base,
        status: 'rejected',
        decidedBy: APPROVER,
        decidedAt: iso(at + 120_000),
        history: [...base.history, { at: iso(at + 120_000), event: 'rejected', by: APPROVER }],
      };
    default:
      return {
        ...base,
        status: 'expired',
        history: [
          ...base.history,
          { at: iso(at + 31 * 60_000), event: 'expired', detail: 'no decision before expiry' },
        ],
      };
  }
}

/** A state file with `perDay` ended quotes a day for the last `days` days. */
function yearOfQuotes(file, days, perDay) {
  const now = Date.now();
  const swapQuotes = {};
  let n = 0;
  for (let day = days; day >= 1; day--)
    for (let i = 0; i < perDay; i++) {
      const quote = endedQuote(now - day * DAY + i * 60_000, n++);
      swapQuotes[quote.id] = quote;
    }
  writeFileSync(file, `${JSON.stringify({ version: 1, swapQuotes }, null, 2)}\n`);
  return n;
}

/** One fsynced write of the whole state (what every decision costs on the state file), median of `times`. */
async function stateWriteMs(file, times = 15) {
  const store = await openStore({ file, load: loadBotState, empty: () => ({}) });
  const took = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await store.update((state) => {
      state.alerts.lastDelivery = { at: new Date().toISOString(), ok: true };
    });
    took.push(performance.now() - started);
  }
  await store.close();
  took.sort((a, b) => a - b);
  return Math.round(took[Math.floor(took.length / 2)] * 10) / 10;
}

/** Quote → Approve rounds against the bot started (as deployed) on a year of quotes. */
export async function approveBench({ startProcess, nodeFlags, root, quick, pct, round }) {
  const days = 365;
  const perDay = quick ? 20 : 50;
  const rounds = quick ? 10 : 30;

  // In this process first: one write with the year in the working state, and with the 30 days that stay.
  const yearFile = join(mkdtempSync(join(tmpdir(), 'bench-year-')), 'state.json');
  const quotes = yearOfQuotes(yearFile, days, perDay);
  const yearBytes = statSync(yearFile).size;
  const yearWriteMs = await stateWriteMs(yearFile);
  const monthFile = join(mkdtempSync(join(tmpdir(), 'bench-month-')), 'state.json');
  yearOfQuotes(monthFile, 30, perDay);
  const monthWriteMs = await stateWriteMs(monthFile);

  const file = join(mkdtempSync(join(tmpdir(), 'bench-approve-')), 'state.json');
  yearOfQuotes(file, days, perDay);
  const sim = await startSimulator({ quiet: true, rateLimitPerSecond: 100_000 });
  const slack = await startSlackStandIn({ botToken: 'xoxb-bench-token' });
  const started = performance.now();
  const bot = await startProcess([...nodeFlags, join(root, 'dist/src/main.js')], {
    SLACK_BOT_TOKEN: 'xoxb-bench-token',
    SLACK_SIGNING_SECRET: 'bench-signing-secret',
    SLACK_API_URL: slack.apiUrl,
    LOG_LEVEL: 'info',
    PAYMENTS_API_URL: sim.url,
    PAYMENTS_API_KEY: sim.apiKey,
    SWAP_APPROVERS: APPROVER,
    DATA_FILE: file,
  });
  const startMs = Math.round(performance.now() - started);
  const afterStartBytes = statSync(file).size;
  const archiveBytes = readdirSync(join(file, '..'))
    .filter((name) => name.startsWith('state.json.quotes-'))
    .reduce((sum, name) => sum + statSync(join(file, '..', name)).size, 0);
  const driver = createSlackDriver({
    eventsUrl: bot.eventsUrl,
    signingSecret: 'bench-signing-secret',
    standIn: slack,
    requestTimeoutMs: 30_000,
  });
  const acks = [];
  const decided = [];
  let errors = 0;
  for (let i = 0; i < rounds; i++) {
    const before = slack.messages(CHANNEL).length;
    const asked = await driver.command('swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
    if (asked.status !== 200) {
      errors++;
      continue;
    }
    // The reply comes once the quote's message is recorded: only then can a click decide it (a person is slower).
    await asked.waitForResponses(1, 20_000);
    const message = await slack.waitFor(
      () => (slack.messages(CHANNEL).length > before ? slack.messages(CHANNEL).at(-1) : undefined),
      20_000,
      'the quote message',
    );
    const clickedAt = performance.now();
    const click = await driver.clickButtonIn({ ...message, channel: CHANNEL }, 'swap_approve', {
      userId: APPROVER,
      channelId: CHANNEL,
    });
    if (click.status !== 200) {
      errors++;
      continue;
    }
    acks.push(click.elapsedMs);
    await slack.waitFor(
      () =>
        JSON.stringify(slack.messages(CHANNEL).find((m) => m.ts === message.ts)?.blocks ?? []).includes('Approved by')
          ? true
          : undefined,
      20_000,
      'the message saying approved',
    );
    decided.push(performance.now() - clickedAt);
  }
  bot.stop();
  await slack.close();
  await sim.close();
  acks.sort((a, b) => a - b);
  decided.sort((a, b) => a - b);
  return {
    setup: { days, quotesPerDay: perDay, quotes, rounds },
    stateFileBytes: { withTheYear: yearBytes, afterStart: afterStartBytes, archive: archiveBytes },
    startMs,
    oneWriteMs: { withTheYear: yearWriteMs, with30Days: monthWriteMs },
    ackMs: { p50: round(pct(acks, 50)), p95: round(pct(acks, 95)), max: round(acks.at(-1) ?? Number.NaN) },
    approvedShownMs: {
      p50: round(pct(decided, 50)),
      p95: round(pct(decided, 95)),
      max: round(decided.at(-1) ?? Number.NaN),
    },
    errors,
  };
}
