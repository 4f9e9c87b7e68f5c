// npm run bench: every figure of issue 11 in one run on one machine. Prints a table, writes bench/results/latest.json.
// Not a test: nothing here passes or fails. BENCH_QUICK=1 runs a lighter sweep (no 1M rows, fewer rounds).
import { execSync, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../dist/dev/simulator/index.js';
import { createSlackDriver } from '../node_modules/.bench-build/test/support/rig/slack-driver.js';
import { startSlackStandIn } from '../node_modules/.bench-build/test/support/rig/slack-stand-in.js';
import { approveBench } from './approve-year.mjs';
import { scrapeBench } from './scrape.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.env.BENCH_QUICK === '1';
// BENCH_ONLY=ack, BENCH_ONLY=latency, BENCH_ONLY=scrape, BENCH_ONLY=poll or BENCH_ONLY=approve runs one part; BENCH_CPU_PROF=<dir> profiles the ack bench's apps (node --cpu-prof) into <dir>/bot, <dir>/bare, <dir>/bare-same-flags; BENCH_NODE_FLAGS replaces npm start's node flags.
const ONLY = process.env.BENCH_ONLY;
const CPU_PROF = process.env.BENCH_CPU_PROF;
const TOKEN = 'xoxb-bench-token';
const SECRET = 'bench-signing-secret';
const CHANNEL = 'C0ALERTS';
const HOUR = 3_600_000;
// The node flags `npm start` runs the bot with (package.json "config.nodeFlags"): the bot and the poller are
// measured as deployed. The bare Bolt app runs twice, with node's defaults and with the same flags, so that the
// flags' share of the difference is visible. BENCH_NODE_FLAGS="<flags>" tries other flags without editing package.json.
const NODE_FLAGS = (
  process.env.BENCH_NODE_FLAGS ?? JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).config.nodeFlags
)
  .split(/\s+/)
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
          // Resolves when the process has exited (a CPU profile is written on the way out).
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

/** node's flags to write a CPU profile of one app of the ack bench into BENCH_CPU_PROF/<app>/ (none when unset). */
const cpuProf = (app) => (CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(CPU_PROF, app)}`] : []);

// ---- a. the ack path ---------------------------------------------------------------------------------------
async function ackBench() {
  const COMMANDS = 500;
  const IN_FLIGHT = 50;
  const ROUNDS = QUICK ? 2 : 4;
  const sim = await startSimulator({ quiet: true, rateLimitPerSecond: 100_000 });
  const slack = await startSlackStandIn({ botToken: TOKEN });
  const env = { SLACK_BOT_TOKEN: TOKEN, SLACK_SIGNING_SECRET: SECRET, SLACK_API_URL: slack.apiUrl, LOG_LEVEL: 'info' };
  const bot = await startProcess([...NODE_FLAGS, ...cpuProf('bot'), join(ROOT, 'dist/src/main.js')], {
    ...env,
    PAYMENTS_API_URL: sim.url,
    PAYMENTS_API_KEY: sim.apiKey,
    DATA_FILE: join(mkdtempSync(join(tmpdir(), 'bench-state-')), 'state.json'),
  });
  const bare = await startProcess([...cpuProf('bare'), join(ROOT, 'bench/bare-bolt.mjs')], env);
  const bareSameFlags = await startProcess(
    [...NODE_FLAGS, ...cpuProf('bare-same-flags'), join(ROOT, 'bench/bare-bolt.mjs')],
    env,
  );
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
  await Promise.all(Object.values(apps).map((app) => app.stop()));
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

/**
 * Starts the poller in its own process (bench/poll-child.mjs, so its peak RSS is the poller's alone) against the
 * simulator and the Slack stand-in, and returns it with `ask`: send a message (or none) and await its next reply.
 */
async function startPollChild(sim, slack, prefix) {
  const file = join(mkdtempSync(join(tmpdir(), prefix)), 'state.json');
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
  return { child, ask, file };
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
  const { child, ask, file } = await startPollChild(sim, slack, 'bench-poll-');
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

// ---- c. alert latency: from a row's change in the simulator to Slack's accepted post ----------------------
// One poll every 2 s of simulator time (POLL_SCHEDULE `*/2 * * * * *`), at each history size (rows of each kind
// over 30 days, read in full by the first run's catch-up before the rounds). Each round changes one row of each
// kind at a random moment between two polls: a new failed row (withdrawal, task, a gas top-up short of donor
// balance), and a row followed while pending for 20 to 50 minutes that turns failed (short of donor balance for
// gas). The latency is Slack's accepted time of the alert (the message ts, on a clock that runs from the poll's
// simulator time at wall speed) less the simulator time of the change.
const LATENCY_POLL_MS = 2_000;
const LATENCY_SIZES = QUICK ? [1_000, 10_000] : [1_000, 100_000, 1_000_000];
async function latencyBench(rowsPerKind) {
  const ROUNDS = QUICK ? 10 : 30;
  const sim = await startSimulator({ quiet: true, seed: false, rateLimitPerSecond: 1_000_000 });
  sim.loadBulkHistory({ rowsPerKind, pendingPerKind: 0 });
  let pollSimMs = sim.now();
  let pollWallMs = performance.now();
  const slack = await startSlackStandIn({
    botToken: TOKEN,
    now: () => pollSimMs + (performance.now() - pollWallMs),
  });
  const { child, ask } = await startPollChild(sim, slack, 'bench-latency-');
  let requests = 0;
  let polls = 0;
  const poll = async () => {
    pollSimMs = sim.now();
    pollWallMs = performance.now();
    sim.resetRequests();
    await ask({ type: 'poll', now: sim.now() });
    requests += sim.requests.length;
    polls += 1;
  };
  // When Slack accepted the first message carrying each alert key (simulator clock).
  const acceptedAt = () => {
    const at = new Map();
    for (const m of slack.messages(CHANNEL)) {
      const key = m.metadata?.event_payload?.key;
      if (typeof key !== 'string' || at.has(key)) continue;
      const [sec, micro] = m.ts.split('.');
      at.set(key, Number(sec) * 1000 + Number(micro) / 1000);
    }
    return at;
  };
  // Pending rows to fail later, one of each kind a minute: each round fails the oldest one that is 20 to 50
  // minutes old (below the floor of the reads of new rows, in the youngest follow-up bands); older ones stay
  // pending (followed, as stuck rows would be). Newer rows keep the withdrawals past the first page.
  const pending = { withdrawal: [], task: [], gas: [] };
  const traffic = () => {
    const at = sim.now();
    pending.withdrawal.push({ at, id: sim.addWithdrawal({ status: 'pending' }).id });
    pending.task.push({ at, id: sim.addPayoutTask({ status: 'pending' }).id });
    pending.gas.push({ at, id: sim.addGasDistribution({ status: 'pending', subStatus: null }).id });
    for (let i = 0; i < 5; i += 1) sim.addWithdrawal({ status: 'success' });
    sim.addPayoutTask({ status: 'success' });
    sim.addGasDistribution({ status: 'success' });
  };
  const takePending = (kind) => {
    const queue = pending[kind];
    while (queue.length > 0 && sim.now() - queue[0].at > 50 * 60_000) queue.shift();
    if (queue.length === 0 || sim.now() - queue[0].at < 20 * 60_000) throw new Error(`no ${kind} pending 20-50 min`);
    return queue.shift().id;
  };
  await poll();
  // The first run's catch-up (a long history takes several polls, a minute apart): the rounds measure the steady state.
  let catchUpPolls = 1;
  while ((await ask({ type: 'walking' })) && catchUpPolls < 500) {
    sim.advanceTime(60_000);
    await poll();
    catchUpPolls += 1;
  }
  // Warm-up: 21 minutes of one poll a minute (cheaper than 2 s polls; the follow-ups run by age, not by polls).
  for (let m = 0; m < 21; m += 1) {
    traffic();
    sim.advanceTime(60_000);
    await poll();
  }
  const kinds = {
    'withdrawal: new failure': () => `withdrawal:${sim.addWithdrawal({ status: 'failed' }).id}`,
    'task: new failure': () => `task:${sim.addPayoutTask({ status: 'failed', subStatus: 'payout_failed' }).id}`,
    'donor-balance shortfall: new gas top-up': () =>
      `gas:${sim.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' }).id}`,
    'withdrawal: pending → failed': () => {
      const id = takePending('withdrawal');
      sim.updateWithdrawal(id, { status: 'failed' });
      return `withdrawal:${id}`;
    },
    'task: pending → failed': () => {
      const id = takePending('task');
      sim.updatePayoutTask(id, { status: 'failed', subStatus: 'payout_failed' });
      return `task:${id}`;
    },
    'donor-balance shortfall: gas top-up pending → failed': () => {
      const id = takePending('gas');
      sim.updateGasDistribution(id, { status: 'failed', subStatus: 'not_enough_donor_balance' });
      return `gas:${id}`;
    },
  };
  const samples = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    traffic();
    // Each kind changes at its own random moment within the next 2-second interval.
    const changes = [];
    const moments = Object.keys(kinds)
      .map((name) => ({ name, offset: Math.floor(random() * LATENCY_POLL_MS) }))
      .sort((a, b) => a.offset - b.offset);
    let elapsed = 0;
    for (const { name, offset } of moments) {
      sim.advanceTime(offset - elapsed);
      elapsed = offset;
      changes.push({ name, key: kinds[name](), at: sim.now() });
    }
    sim.advanceTime(LATENCY_POLL_MS - elapsed);
    // Poll every 2 s until every change of this round reached Slack (at most 15 minutes).
    for (let p = 0; p < 450; p += 1) {
      await poll();
      const at = acceptedAt();
      if (changes.every((c) => at.has(c.key))) break;
      sim.advanceTime(LATENCY_POLL_MS);
      if (p % 30 === 29) traffic(); // a little traffic every minute
    }
    const at = acceptedAt();
    for (const c of changes) samples[c.name].push(at.has(c.key) ? at.get(c.key) - c.at : Number.POSITIVE_INFINITY);
    // A random pause (0 to 5 minutes, a poll a minute) before the next round, so that its changes do not fall
    // in step with the follow-ups that ended this one.
    const pause = Math.floor(random() * 5 * 60_000);
    for (let waited = 0; waited < pause; waited += 60_000) {
      sim.advanceTime(Math.min(60_000, pause - waited));
      traffic();
      await poll();
    }
    sim.advanceTime(LATENCY_POLL_MS);
  }
  child.send({ type: 'close' });
  await new Promise((resolve) => child.once('exit', resolve));
  await slack.close();
  await sim.close();
  const byKind = Object.fromEntries(
    Object.entries(samples).map(([name, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return [
        name,
        {
          samples: sorted.length,
          p50Ms: round(pct(sorted, 50)),
          p95Ms: round(pct(sorted, 95)),
          maxMs: round(sorted.at(-1)),
          missed: sorted.filter((v) => !Number.isFinite(v)).length,
        },
      ];
    }),
  );
  return {
    rowsPerKind,
    pollEveryMs: LATENCY_POLL_MS,
    rounds: ROUNDS,
    catchUpPolls,
    polls,
    requestsPerPoll: round(requests / polls, 2),
    byKind,
  };
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

const ack = ONLY === undefined || ONLY === 'ack' ? await ackBench() : null;
if (ack) {
  console.log('\n## Ack path: 500 signed /treasury balances per round, 50 in flight, listAssets answering after 2 s');
  console.log(
    '| app | acks | p50 ms | p95 ms | p99 ms | max ms | CPU ms/cmd (ack window) | CPU ms/cmd (all work) | peak RSS MB |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const label = {
    bot: `bot (node ${ack.setup.nodeFlags} dist/src/main.js, the product as deployed; npm start's flags)`,
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

const latency = [];
for (const rows of ONLY === undefined || ONLY === 'latency' ? LATENCY_SIZES : []) {
  process.stderr.write(`latency bench at ${rows} rows of each kind…\n`);
  latency.push(await latencyBench(rows));
}
if (latency.length > 0) {
  const l = latency[0];
  console.log(
    `\n## Alert latency: a row's change in the simulator to Slack's accepted post (a poll every ${l.pollEveryMs / 1000} s, ${l.rounds} changes of each kind per history size)`,
  );
  console.log('| rows of each kind | kind | samples | p50 s | p95 s | max s | not alerted | requests per poll |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const size of latency)
    for (const [name, k] of Object.entries(size.byKind))
      console.log(
        `| ${size.rowsPerKind.toLocaleString('en')} | ${name} | ${k.samples} | ${round(k.p50Ms / 1000, 2)} | ${round(k.p95Ms / 1000, 2)} | ${round(k.maxMs / 1000, 2)} | ${k.missed} | ${size.requestsPerPoll} |`,
      );
}

const scrape =
  ONLY === undefined || ONLY === 'scrape'
    ? await scrapeBench({ nodeFlags: NODE_FLAGS, root: ROOT, quick: QUICK, pct, round })
    : null;
if (scrape) {
  const s = scrape;
  console.log(
    `\n## A scrape of GET /metrics with a long alert history (state file: ${s.setup.trailEntries.toLocaleString('en')} alert trail entries, ${s.setup.owned.toLocaleString('en')} owned alerts of which ${s.setup.unresolved} not resolved; ${s.setup.scrapes} scrapes)`,
  );
  console.log(
    '| state file | bot start ms | scrape p50 / p95 / max ms | scrape bytes | open alerts read: count / whole bookkeeping p50 ms |',
  );
  console.log('|---|---|---|---|---|');
  console.log(
    `| ${round(s.stateFileBytes / 2 ** 20)} MB | ${s.startMs} | ${s.scrapeMs.p50} / ${s.scrapeMs.p95} / ${s.scrapeMs.max} | ${s.scrapeBytes.toLocaleString('en')} | ${s.openAlertsReadMs.count} / ${s.openAlertsReadMs.wholeBookkeeping} |`,
  );
}

const sizes =
  ONLY !== undefined && ONLY !== 'poll' ? [] : QUICK ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
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
  ONLY !== undefined && ONLY !== 'approve'
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
const json = { at: new Date().toISOString(), commit, machine, quick: QUICK, ack, latency, scrape, polls, approve };
writeFileSync(join(ROOT, `bench/results/latest${ONLY ? `-${ONLY}` : ''}.json`), `${JSON.stringify(json, null, 2)}\n`);
console.log(`\nwrote bench/results/latest${ONLY ? `-${ONLY}` : ''}.json`);
process.exit(0);
