// npm run bench: every figure of issue 11 in one run on one machine. Prints a table, writes bench/results/latest.json.
// Not a test: nothing here passes or fails. BENCH_QUICK=1 runs a lighter sweep (no 1M rows, fewer rounds).
import { execSync, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../dist/simulator/index.js';
import { createSlackDriver } from '../node_modules/.bench-build/test/support/rig/slack-driver.js';
import { startSlackStandIn } from '../node_modules/.bench-build/test/support/rig/slack-stand-in.js';
import { approveBench } from './approve-year.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.env.BENCH_QUICK === '1';
// BENCH_ONLY=ack, BENCH_ONLY=poll or BENCH_ONLY=approve runs one part; BENCH_CPU_PROF=<dir> starts the bot with node --cpu-prof there.
const ONLY = process.env.BENCH_ONLY;
const CPU_PROF = process.env.BENCH_CPU_PROF;
const TOKEN = 'xoxb-bench-token';
const SECRET = 'bench-signing-secret';
const CHANNEL = 'C0ALERTS';
const HOUR = 3_600_000;
// The node flags `npm start` runs the bot with (package.json "config.nodeFlags"): the bot and the poller are
// measured as deployed. The bare Bolt app runs twice, with node's defaults and with the same flags, so that the
// flags' share of the difference is visible.
const NODE_FLAGS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  .config.nodeFlags.split(/\s+/)
  .filter(Boolean);
const LONG_PENDING = 1_000;
// Idle polls measured after the catch-up: two hours of one poll a minute, so the hourly follow-ups are in it.
const IDLE_POLLS = 120;

// ---- process measurements (/proc) -------------------------------------------------------------------------
const TICK_MS = 1000 / Number(execSync('getconf CLK_TCK').toString().trim() || 100);
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime + stime
}
function peakRssMb(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    cwd: mkdtempSync(join(tmpdir(), 'bench-')),
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${stderr}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const port = /listening for Slack on port (\d+)/.exec(stderr)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({
          child,
          pid: child.pid,
          eventsUrl: `http://127.0.0.1:${port}/slack/events`,
          stop: () => {
            child.removeAllListeners('exit');
            child.kill('SIGTERM');
          },
        });
      }
    });
  });
}

// ---- a. the ack path ---------------------------------------------------------------------------------------
async function ackBench() {
  const COMMANDS = 500;
  const IN_FLIGHT = 50;
  const ROUNDS = QUICK ? 2 : 4;
  const sim = await startSimulator({ quiet: true, rateLimitPerSecond: 100_000 });
  const slack = await startSlackStandIn({ botToken: TOKEN });
  const env = { SLACK_BOT_TOKEN: TOKEN, SLACK_SIGNING_SECRET: SECRET, SLACK_API_URL: slack.apiUrl, LOG_LEVEL: 'info' };
  const bot = await startProcess(
    [...NODE_FLAGS, ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []), join(ROOT, 'dist/main.js')],
    {
      ...env,
      PAYMENTS_API_URL: sim.url,
      PAYMENTS_API_KEY: sim.apiKey,
      DATA_FILE: join(mkdtempSync(join(tmpdir(), 'bench-state-')), 'state.json'),
    },
  );
  const bare = await startProcess([join(ROOT, 'bench/bare-bolt.mjs')], env);
  const bareSameFlags = await startProcess([...NODE_FLAGS, join(ROOT, 'bench/bare-bolt.mjs')], env);
  const apps = { bot, bare, bareSameFlags };
  const results = Object.fromEntries(
    Object.keys(apps).map((name) => [name, { acks: [], cpuAckMs: 0, cpuAllMs: 0, commands: 0, errors: 0 }]),
  );
  const runRound = async (name, record) => {
    const app = apps[name];
    const driver = createSlackDriver({
      eventsUrl: app.eventsUrl,
      signingSecret: SECRET,
      standIn: slack,
      requestTimeoutMs: 30_000,
    });
    sim.clearFaults();
    if (name === 'bot') sim.injectFault('listAssets', { delayMs: 2000 }, COMMANDS);
    const followUps = [];
    const cpu0 = cpuMs(app.pid);
    let next = 0;
    const acks = [];
    let errors = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < COMMANDS) {
          next += 1;
          try {
            const result = await driver.command('balances');
            if (result.status === 200) acks.push(result.elapsedMs);
            else errors += 1;
            if (name === 'bot')
              followUps.push(
                result.waitForResponses(1, 60_000).catch(() => {
                  errors += 1;
                }),
              );
          } catch {
            errors += 1;
          }
        }
      }),
    );
    const cpuAck = cpuMs(app.pid) - cpu0;
    await Promise.all(followUps);
    await new Promise((r) => setTimeout(r, 200));
    const cpuAll = cpuMs(app.pid) - cpu0;
    if (!record) return;
    const r = results[name];
    r.acks.push(...acks);
    r.cpuAckMs += cpuAck;
    r.cpuAllMs += cpuAll;
    r.commands += acks.length;
    r.errors += errors;
  };
  for (const name of Object.keys(apps)) await runRound(name, false); // warm-up, not counted
  for (let k = 0; k < ROUNDS; k += 1) {
    const order = k % 2 === 0 ? ['bare', 'bot', 'bareSameFlags'] : ['bareSameFlags', 'bot', 'bare'];
    for (const name of order) await runRound(name, true);
  }
  const out = {};
  for (const name of Object.keys(apps)) {
    const r = results[name];
    const sorted = [...r.acks].sort((a, b) => a - b);
    out[name] = {
      commands: r.commands,
      errors: r.errors,
      p50: round(pct(sorted, 50)),
      p95: round(pct(sorted, 95)),
      p99: round(pct(sorted, 99)),
      max: round(sorted.at(-1)),
      cpuMsPerCommandAckWindow: round(r.cpuAckMs / r.commands, 2),
      cpuMsPerCommandAllWork: round(r.cpuAllMs / r.commands, 2),
      peakRssMb: round(peakRssMb(apps[name].pid)),
    };
  }
  out.ratio = {};
  out.ratioSameFlags = {};
  for (const key of ['p50', 'p95', 'p99', 'max', 'cpuMsPerCommandAckWindow', 'cpuMsPerCommandAllWork', 'peakRssMb']) {
    out.ratio[key] = round(out.bot[key] / out.bare[key], 2);
    out.ratioSameFlags[key] = round(out.bot[key] / out.bareSameFlags[key], 2);
  }
  out.setup = {
    nodeFlags: NODE_FLAGS.join(' '),
    commandsPerRound: COMMANDS,
    inFlight: IN_FLIGHT,
    countedRoundsEach: ROUNDS,
    listAssetsDelayMs: 2000,
    cpuTickMs: TICK_MS,
  };
  for (const app of Object.values(apps)) app.stop();
  await slack.close();
  await sim.close();
  return out;
}

// ---- b/c. the poller at a history size -----------------------------------------------------------------------
function byEndpoint(log) {
  const counts = {};
  for (const entry of log) counts[entry.operation ?? entry.path] = (counts[entry.operation ?? entry.path] ?? 0) + 1;
  return counts;
}

async function pollBench(rows, failureBursts) {
  const sim = await startSimulator({ quiet: true, seed: false, rateLimitPerSecond: 1_000_000 });
  const t0 = performance.now();
  // 1,000 rows of each kind stay pending, spread over the whole 30 days (long-pending: a donor never refilled, a
  // stuck task or withdrawal); at 1k rows that is nearly every row.
  const summary = sim.loadBulkHistory({
    rowsPerKind: rows,
    pendingPerKind: LONG_PENDING,
    pendingWithinMs: 30 * 24 * HOUR,
  });
  const loadMs = performance.now() - t0;
  const slack = await startSlackStandIn({ botToken: TOKEN });
  const file = join(mkdtempSync(join(tmpdir(), 'bench-poll-')), 'state.json');
  // The poller runs in its own process (bench/poll-child.mjs): its peak RSS is the poller's alone.
  const child = fork(
    join(ROOT, 'bench/poll-child.mjs'),
    [
      JSON.stringify({
        simUrl: sim.url,
        apiKey: sim.apiKey,
        slackApiUrl: slack.apiUrl,
        token: TOKEN,
        file,
        channel: CHANNEL,
        lookbackMs: 24 * HOUR,
      }),
    ],
    { execArgv: NODE_FLAGS, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const replies = [];
  const waiting = [];
  child.on('message', (message) => (waiting.length > 0 ? waiting.shift()(message) : replies.push(message)));
  const ask = (message) =>
    new Promise((resolve) => {
      if (message) child.send(message);
      if (replies.length > 0) resolve(replies.shift());
      else waiting.push(resolve);
    });
  await ask(undefined); // 'ready'
  const poll = async () => {
    sim.advanceTime(60_000); // one poll a minute (POLL_SCHEDULE default)
    sim.resetRequests();
    const posted0 = slack.messages(CHANNEL).length;
    const result = await ask({ type: 'poll', now: sim.now() });
    const endpoints = byEndpoint(sim.requests);
    return {
      wallMs: round(result.wallMs),
      requests: sim.requests.length,
      endpoints,
      slackMessages: slack.messages(CHANNEL).length - posted0,
      sourcesOk: result.sourcesOk,
      sources: result.sources,
      queued: result.queued,
    };
  };
  // Catch-up: the first poll, then polls until no list has a walk in progress (each poll reads a bounded number
  // of pages, so a long first-run read takes several polls).
  const catchUpPolls = [await poll()];
  while ((await ask({ type: 'walking' })) && catchUpPolls.length < 500) catchUpPolls.push(await poll());
  const catchUp = {
    polls: catchUpPolls.length,
    requests: catchUpPolls.reduce((sum, p) => sum + p.requests, 0),
    wallMs: round(catchUpPolls.reduce((sum, p) => sum + p.wallMs, 0)),
    maxRequestsInOnePoll: Math.max(...catchUpPolls.map((p) => p.requests)),
  };
  // Idle: nothing new happens. For the first 15 minutes (the overlap) each poll re-reads the band below the
  // newest rows, where rows may still appear late; after it, one page per list. 18 polls cover both.
  const idle = [];
  for (let k = 0; k < IDLE_POLLS; k += 1) idle.push(await poll());
  const idlePoll = idle.at(-1);
  const settling = idle.slice(0, 15);
  const idleSettling = {
    polls: settling.length,
    maxRequests: Math.max(...settling.map((p) => p.requests)),
    firstRequests: settling[0].requests,
  };
  // After the overlap has settled: how the idle polls' requests are spread.
  const settled = idle.slice(15).map((p) => p.requests);
  const sortedCounts = [...settled].sort((a, b) => a - b);
  const idleStats = {
    polls: settled.length,
    median: pct(sortedCounts, 50),
    atMostSixShare: round(settled.filter((n) => n <= 6).length / settled.length, 2),
    average: round(settled.reduce((sum, n) => sum + n, 0) / settled.length, 2),
    max: sortedCounts.at(-1),
    histogram: Object.fromEntries([...new Set(sortedCounts)].map((n) => [n, settled.filter((m) => m === n).length])),
  };
  const size = statSync(file).size;
  const written = await ask({ type: 'write', now: sim.now() });
  const writeMs = typeof written === 'number' ? round(written, 2) : written;
  const bursts = [];
  for (const n of failureBursts) {
    for (let k = 0; k < n; k += 1) {
      sim.addWithdrawal({ status: 'failed' });
      sim.addPayoutTask({ status: 'failed', subStatus: 'payout_failed' });
      sim.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
    }
    bursts.push({ newFailuresPerKind: n, ...(await poll()) });
  }
  const pollerPeakRssMb = round(peakRssMb(child.pid));
  child.send({ type: 'close' });
  await new Promise((resolve) => child.once('exit', resolve));
  const result = {
    rowsPerKind: rows,
    loadMs: round(loadMs),
    summary,
    catchUp,
    idlePolls: idle.length,
    idleSettling,
    idleStats,
    idle: idlePoll,
    stateFileBytes: size,
    stateWriteMs: writeMs,
    bursts,
    pollerPeakRssMb,
    simulatorPeakRssMb: round(peakRssMb(process.pid)),
  };
  await slack.close();
  await sim.close();
  return result;
}

// ---- main --------------------------------------------------------------------------------------------------
const commit = (() => {
  try {
    return (
      execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim() +
      (execSync('git status --porcelain', { cwd: ROOT }).toString().trim() ? ' (+ uncommitted changes)' : '')
    );
  } catch {
    return 'unknown';
  }
})();
const machine = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model,
  memTotalGb: round(totalmem() / 2 ** 30),
  memFreeGb: round(freemem() / 2 ** 30),
  node: process.version,
};
console.log(
  `bench on ${commit}; ${machine.nproc} CPUs (${machine.cpu}), ${machine.memTotalGb} GB, Node ${machine.node}${QUICK ? '; QUICK sweep' : ''}`,
);

const ack = ONLY === 'poll' || ONLY === 'approve' ? null : await ackBench();
if (ack) {
  console.log('\n## Ack path: 500 signed /treasury balances per round, 50 in flight, listAssets answering after 2 s');
  console.log(
    '| app | acks | p50 ms | p95 ms | p99 ms | max ms | CPU ms/cmd (ack window) | CPU ms/cmd (all work) | peak RSS MB |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const label = {
    bot: `bot (node ${ack.setup.nodeFlags} dist/main.js, as npm start)`,
    bare: 'bare Bolt (ack only, node defaults)',
    bareSameFlags: `bare Bolt with ${ack.setup.nodeFlags}`,
  };
  for (const name of ['bot', 'bare', 'bareSameFlags']) {
    const r = ack[name];
    console.log(
      `| ${label[name]} | ${r.commands}${r.errors ? ` (${r.errors} errors)` : ''} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} | ${r.cpuMsPerCommandAckWindow} | ${r.cpuMsPerCommandAllWork} | ${r.peakRssMb} |`,
    );
  }
  const q = ack.ratio;
  console.log(
    `| bot / bare | | ${q.p50}× | ${q.p95}× | ${q.p99}× | ${q.max}× | ${q.cpuMsPerCommandAckWindow}× | ${q.cpuMsPerCommandAllWork}× | ${q.peakRssMb}× |`,
  );
  const f = ack.ratioSameFlags;
  console.log(
    `| bot / bare with the same flags | | ${f.p50}× | ${f.p95}× | ${f.p99}× | ${f.max}× | ${f.cpuMsPerCommandAckWindow}× | ${f.cpuMsPerCommandAllWork}× | ${f.peakRssMb}× |`,
  );
}

const sizes =
  ONLY === 'ack' || ONLY === 'approve' ? [] : QUICK ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
const polls = [];
for (const rows of sizes) {
  // 1M rows: one burst (100 of each kind) only, to stay within ~10 minutes on 2 cores.
  const bursts = rows >= 1_000_000 ? [100] : [10, 100, 1_000];
  process.stderr.write(`poll bench at ${rows} rows of each kind…\n`);
  polls.push(await pollBench(rows, bursts));
}
const ep = (e) =>
  `${e.listWithdrawals ?? 0} / ${e.listPayoutTasks ?? 0} / ${e.listGasDistributions ?? 0}${
    Object.keys(e).some((k) => !['listWithdrawals', 'listPayoutTasks', 'listGasDistributions'].includes(k))
      ? ` + ${Object.entries(e)
          .filter(([k]) => !['listWithdrawals', 'listPayoutTasks', 'listGasDistributions'].includes(k))
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}`
      : ''
  }`;
if (polls.length > 0) {
  console.log(
    `\n## Idle polls (history over 30 days, 5 % failed, ${LONG_PENDING.toLocaleString('en')} rows of each kind pending for up to 30 days; floor: 4 requests)`,
  );
  console.log(
    `| rows of each kind | pending (w / t / g) | load ms | catch-up: polls, requests (most in one poll), wall | first 15 idle minutes: most requests in a poll | next ${IDLE_POLLS - 15} idle polls: median, share ≤ 6, average, max requests | last idle poll (withdrawals / tasks / gas) | idle wall ms | sources ok | state file | one write ms | poller peak RSS MB | simulator peak RSS MB |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const p of polls) {
    const s = p.idleStats;
    console.log(
      `| ${p.rowsPerKind.toLocaleString('en')} | ${p.summary.withdrawals.pending} / ${p.summary.tasks.pending} / ${p.summary.gas.pending} | ${p.loadMs} | ${p.catchUp.polls}, ${p.catchUp.requests} (${p.catchUp.maxRequestsInOnePoll}), ${p.catchUp.wallMs} ms | ${p.idleSettling.maxRequests} | ${s.median}, ${Math.round(s.atMostSixShare * 100)} %, ${s.average}, ${s.max} | ${p.idle.requests} (${ep(p.idle.endpoints)}) | ${p.idle.wallMs} | ${p.idle.sourcesOk ? 'yes' : 'NO'} | ${round(p.stateFileBytes / 1024)} kB | ${p.stateWriteMs} | ${p.pollerPeakRssMb} | ${p.simulatorPeakRssMb} |`,
    );
  }
  console.log('\n## A poll with new failures (N of each kind)');
  console.log(
    '| rows of each kind | new failures per kind | requests (withdrawals / tasks / gas) | wall ms | Slack messages | sources ok |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const p of polls)
    for (const b of p.bursts)
      console.log(
        `| ${p.rowsPerKind.toLocaleString('en')} | ${b.newFailuresPerKind} | ${b.requests} (${ep(b.endpoints)}) | ${b.wallMs} | ${b.slackMessages} | ${b.sourcesOk ? 'yes' : 'NO'} |`,
      );
  if (!QUICK) console.log('\n(1M rows: one burst of 100 per kind only, to keep the run under ~10 minutes on 2 cores.)');
}

const approve =
  ONLY === 'ack' || ONLY === 'poll'
    ? null
    : await approveBench({ startProcess, nodeFlags: NODE_FLAGS, root: ROOT, quick: QUICK, pct, round });
if (approve) {
  const a = approve;
  console.log(
    `\n## Approve with a year of quotes (${a.setup.quotes.toLocaleString('en')} ended quotes over ${a.setup.days} days in the state file at start; ${a.setup.rounds} quote → Approve rounds)`,
  );
  console.log(
    '| state file at start | after start (archive beside it) | start ms | one write: year / 30 days | ack p50 / p95 / max ms | approved shown p50 / p95 / max ms |',
  );
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| ${round(a.stateFileBytes.withTheYear / 2 ** 20)} MB | ${round(a.stateFileBytes.afterStart / 2 ** 20)} MB (${round(a.stateFileBytes.archive / 2 ** 20)} MB) | ${a.startMs} | ${a.oneWriteMs.withTheYear} / ${a.oneWriteMs.with30Days} ms | ${a.ackMs.p50} / ${a.ackMs.p95} / ${a.ackMs.max} | ${a.approvedShownMs.p50} / ${a.approvedShownMs.p95} / ${a.approvedShownMs.max} |${a.errors ? ` ${a.errors} errors` : ''}`,
  );
}

mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const json = { at: new Date().toISOString(), commit, machine, quick: QUICK, ack, polls, approve };
writeFileSync(join(ROOT, `bench/results/latest${ONLY ? `-${ONLY}` : ''}.json`), `${JSON.stringify(json, null, 2)}\n`);
console.log(`\nwrote bench/results/latest${ONLY ? `-${ONLY}` : ''}.json`);
process.exit(0);
