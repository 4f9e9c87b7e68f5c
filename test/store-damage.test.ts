import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { openBotStore } from '../src/store/lowdb/index.js';
import { StateFileRefusedError } from '../src/store/lowdb/state-file.js';
import { mentions, type PollerRig, startPollerRig } from './features/alerts/poller/helpers.js';
import { swapQuoteRecord } from './support/fixtures.js';

/*
 * A damaged state file must cost only the damaged record: the audit trail of every other quote and the alert
 * bookkeeping (which alerts were already posted) survive, the bad record is kept aside in a file and logged.
 */

const children: ChildProcess[] = [];
let rig: PollerRig | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await rig?.close();
  rig = undefined;
});

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'store-damage-')), 'state.json');
}

function logCapture() {
  const lines: string[] = [];
  return { lines, logger: createLogger('debug', (line) => lines.push(line)) };
}

const quote = (id: string, overrides: Record<string, unknown> = {}) =>
  swapQuoteRecord(id, {
    estimateId: `estimate-${id}`,
    messageTs: '1700000000.000100',
    amountFrom: '1000000',
    estimatedAmount: '999000',
    status: 'rejected',
    decidedBy: 'U2',
    decidedAt: '2026-11-22T00:05:00.000Z',
    history: [{ at: '2026-11-22T00:00:00.000Z', event: 'quoted', by: 'U1' }],
    ...overrides,
  });

const GOOD_1 = '6f1c2a34-8b7d-4e21-9c3f-0a1b2c3d4e5f';
const BAD = '7a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
const GOOD_2 = '8b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d9e';

const withdrawalFacts = (id: string) => ({
  kind: 'withdrawal',
  id,
  status: 'failed',
  createdAt: '2026-11-21T23:00:00.000Z',
  symbol: 'USDT',
  decimals: 6,
  network: { title: 'Ethereum', symbol: 'ETH' },
  amount: '5000000',
  amountInUsd: '5.00',
  address: '0xabc',
  txHash: null,
});

/** Alert bookkeeping with something in every part. */
const alerts = () => ({
  sources: {
    withdrawals: {
      initializedAt: '2026-11-01T00:00:00.000Z',
      lastSuccessAt: '2026-11-22T00:00:00.000Z',
      consecutiveFailures: 0,
      watermark: '2026-11-21T23:00:00.000Z',
      tracking: { w9: '2026-11-21T22:00:00.000Z' },
    },
    tasks: {
      initializedAt: '2026-11-01T00:00:00.000Z',
      lastSuccessAt: '2026-11-22T00:00:00.000Z',
      consecutiveFailures: 0,
      watermark: '2026-11-21T20:00:00.000Z',
      tracking: {},
    },
    gas: {
      initializedAt: '2026-11-01T00:00:00.000Z',
      lastSuccessAt: '2026-11-22T00:00:00.000Z',
      consecutiveFailures: 0,
      tracking: {},
    },
  },
  alerted: {
    'withdrawal:w1': { createdAt: '2026-11-21T10:00:00.000Z', at: '2026-11-21T10:01:00.000Z' },
    'task:t1': { createdAt: '2026-11-21T11:00:00.000Z', at: '2026-11-21T11:01:00.000Z' },
    'gas:g1': { createdAt: '2026-10-01T00:00:00.000Z' },
  },
  outbox: [{ key: 'withdrawal:w2', queuedAt: '2026-11-22T00:00:00.000Z', facts: withdrawalFacts('w2') }],
  lastDelivery: { at: '2026-11-22T00:00:00.000Z', ok: true },
});

/** Copies, so a test can compare what was loaded with what was written (no prototype surprises). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function asideFiles(file: string, kind: 'rejected' | 'corrupt'): string[] {
  const dir = join(file, '..');
  return readdirSync(dir)
    .filter((name) => name.startsWith(`state.json.${kind}-`))
    .map((name) => join(dir, name));
}

describe('one damaged record in the state file', () => {
  const MONEY: [string, (raw: Record<string, Record<string, unknown>>) => void, RegExp][] = [
    [
      'an approving quote',
      (raw) => {
        raw.swapQuotes![BAD] = quote(BAD, { status: 'approving', amountFrom: 1000000 });
      },
      new RegExp(`swapQuotes\\.${BAD} \\(amountFrom`),
    ],
    [
      'a created quote',
      (raw) => {
        raw.swapQuotes![BAD] = quote(BAD, { status: 'created', from: null });
      },
      new RegExp(`swapQuotes\\.${BAD} \\(from`),
    ],
    [
      'a quote stored under another id',
      (raw) => {
        raw.swapQuotes![BAD] = quote(GOOD_2, { status: 'pending' });
      },
      new RegExp(`swapQuotes\\.${BAD} \\(stored under one id`),
    ],
    [
      'a payout request',
      (raw) => {
        raw.payouts = { damaged: { id: 'damaged', status: 'teleported' } };
      },
      /payouts\.damaged \(/,
    ],
  ];

  it.each(MONEY)(
    'a damaged money record (%s) refuses the start in one line naming it and the flag; the file is left as it is',
    async (_what, damage, named) => {
      const file = tempFile();
      const raw: Record<string, Record<string, unknown>> = { swapQuotes: { [GOOD_1]: quote(GOOD_1) } };
      damage(raw);
      const content = JSON.stringify({ version: 1, ...raw, alerts: alerts() });
      writeFileSync(file, content);
      const { lines, logger } = logCapture();
      const refused = await openBotStore(file, logger).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StateFileRefusedError);
      const message = (refused as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain(`the state file ${file} (DATA_FILE) has a damaged money record, `);
      expect(message).toMatch(named);
      expect(message).toContain('Restore it from a backup, or start once with --set-aside-damaged-records');
      expect(readFileSync(file, 'utf8')).toBe(content);
      expect(asideFiles(file, 'rejected')).toEqual([]);
      expect(existsSync(`${file}.lock`)).toBe(false);
      expect(lines.join('\n')).toMatch(/ERROR a damaged money record in the state file: refusing to start/);
      // Refused again the next time: the record never vanishes by accident.
      await expect(openBotStore(file)).rejects.toThrow(StateFileRefusedError);
    },
  );

  it('a bad quote among good ones, set aside as a person chose (--set-aside-damaged-records): the good quotes and all alert bookkeeping survive; the bad one is kept aside in a file and logged', async () => {
    const file = tempFile();
    const bad = quote(BAD, { amountFrom: 1000000 }); // a number where a base-unit string belongs
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        swapQuotes: { [GOOD_1]: quote(GOOD_1), [BAD]: bad, [GOOD_2]: quote(GOOD_2, { status: 'pending' }) },
        alerts: alerts(),
      }),
    );
    const { lines, logger } = logCapture();
    const store = await openBotStore(file, logger, undefined, { setAsideDamagedRecords: true });

    expect(Object.keys(store.read().swapQuotes).sort()).toEqual([GOOD_1, GOOD_2]);
    expect(plain(store.read().swapQuotes[GOOD_1])).toEqual(quote(GOOD_1));
    expect(plain(store.read().alerts)).toEqual(alerts());
    expect(store.recoveredCorruptFile).toBeUndefined();
    expect(asideFiles(file, 'corrupt')).toEqual([]);

    // Kept aside, whole, next to the state file.
    expect(asideFiles(file, 'rejected')).toEqual([store.rejectedRecordsFile]);
    const aside = JSON.parse(readFileSync(store.rejectedRecordsFile!, 'utf8'));
    expect(aside.records).toHaveLength(1);
    expect(aside.records[0]).toMatchObject({ where: `swapQuotes.${BAD}`, id: BAD, value: bad });
    expect(aside.records[0].problem).toContain('amountFrom');
    // Logged as an error naming the record and the problem.
    const logged = lines.filter((line) => / ERROR /.test(line));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('a damaged record in the state file was set aside');
    expect(logged[0]).toContain(BAD);
    expect(logged[0]).toContain('amountFrom');

    // The file on disk now holds the good records; they survive a reopen.
    await store.close();
    const reopened = await openBotStore(file);
    expect(Object.keys(reopened.read().swapQuotes).sort()).toEqual([GOOD_1, GOOD_2]);
    expect(reopened.rejectedRecordsFile).toBeUndefined();
    await reopened.close();
  });

  it('bad alert records: one bad handled-alert key, one bad outbox item and an unreadable watermark cost only themselves, loudly', async () => {
    const file = tempFile();
    // Loosened to the parts damaged below, so the test can write what the types forbid.
    const damaged = alerts() as unknown as {
      alerted: Record<string, unknown>;
      outbox: unknown[];
      sources: { tasks: { watermark: unknown } };
    };
    damaged.alerted['withdrawal:w3'] = { at: 'no createdAt' };
    damaged.outbox.push({ key: 'task:t2', queuedAt: '2026-11-22T00:00:00.000Z', facts: { kind: 'task', id: 't2' } });
    damaged.sources.tasks.watermark = 20261121; // unreadable
    writeFileSync(file, JSON.stringify({ version: 1, swapQuotes: { [GOOD_1]: quote(GOOD_1) }, alerts: damaged }));
    const { lines, logger } = logCapture();
    const store = await openBotStore(file, logger);
    const loaded = plain(store.read().alerts) as ReturnType<typeof alerts>;

    // Every handled-alert key that was readable survives, so nothing is posted twice.
    expect(loaded.alerted).toEqual(alerts().alerted);
    expect(loaded.outbox).toEqual(alerts().outbox);
    expect(loaded.sources.withdrawals).toEqual(alerts().sources.withdrawals);
    expect(loaded.sources.gas).toEqual(alerts().sources.gas);
    // The damaged source starts over (ALERT_LOOKBACK applies again; the alerted keys stop re-posts).
    expect(loaded.sources.tasks).toEqual({ consecutiveFailures: 0, tracking: {} });
    expect(loaded.lastDelivery).toEqual(alerts().lastDelivery);
    expect(Object.keys(store.read().swapQuotes)).toEqual([GOOD_1]);

    const aside = JSON.parse(readFileSync(store.rejectedRecordsFile!, 'utf8'));
    expect(aside.records.map((r: { where: string }) => r.where).sort()).toEqual([
      'alerts.alerted.withdrawal:w3',
      'alerts.outbox[1]',
      'alerts.sources.tasks',
    ]);
    const errors = lines.filter((line) => / ERROR /.test(line)).join('\n');
    expect(errors).toContain('"record":"alerts.sources.tasks"');
    expect(errors).toContain('watermark');
    expect(errors).toContain('"id":"task:t2"');
    await store.close();
  });

  it('end to end: after a restart on a file with one bad quote (set aside as a person chose), the poller does not post alerts it already posted', async () => {
    const r = await startPollerRig({ seed: false });
    rig = r;
    expect((await r.poll()).posted).toBe(0);
    const failed = r.sim.addWithdrawal({ assetId: r.sim.ids.assets.usdtEth, status: 'failed', amount: '1234500000' });
    expect((await r.poll()).posted).toBe(1);
    expect(mentions(r, failed.id)).toBe(1);

    // The bot stops; the file is damaged in one quote (a bad disk block, a hand edit, a bug in an old version).
    await r.store.update((state) => {
      state.swapQuotes[GOOD_1] = quote(GOOD_1) as never;
    });
    await r.store.close();
    const onDisk = JSON.parse(readFileSync(r.file, 'utf8'));
    onDisk.swapQuotes[BAD] = quote(BAD, { status: 'no-such-status' });
    writeFileSync(r.file, JSON.stringify(onDisk));

    // A damaged quote refuses the start; a person looks at it and chooses to set it aside.
    await expect(r.restart()).rejects.toThrow(/has a damaged money record/);
    await r.restart({ setAsideDamagedRecords: true });
    expect(Object.keys(r.store.read().swapQuotes)).toEqual([GOOD_1]);
    expect((await r.poll()).posted).toBe(0);
    expect(mentions(r, failed.id)).toBe(1);
    expect(r.logs.join('\n')).toMatch(
      new RegExp(`ERROR a damaged record in the state file was set aside.*${BAD}.*status`),
    );
  });
});

describe('a state file that cannot be read as a whole', () => {
  const CORRUPT: [string, string, RegExp][] = [
    ['an empty file', '', /the file is empty/],
    ['only whitespace', ' \n', /the file is empty/],
    ['truncated JSON', '{"version":1,"swapQuotes":{"q1":{"id":"q1"', /not valid JSON/],
    ['null', 'null', /holds null, not a state object/],
    ['false', 'false', /holds a boolean/],
    ['0', '0', /holds a number/],
    ['a list', '[]', /holds a list/],
    ['a string', '"state"', /holds a string/],
    ['an object of no version', '{}', /unknown state version/],
    ['another version', '{"version":2,"swapQuotes":{}}', /unknown state version 2/],
    ['version 1 without its quotes', '{"version":1,"alerts":{}}', /has no swapQuotes part/],
    ['quotes as a list', '{"version":1,"swapQuotes":[]}', /its swapQuotes part is a list, not a record/],
    ['the alert state as a list', '{"version":1,"swapQuotes":{},"alerts":[]}', /its alerts part is a list/],
    [
      'the alert trail as an object',
      '{"version":1,"swapQuotes":{},"alertTrail":{}}',
      /its alertTrail part is an? object/,
    ],
    ['the payouts as null', '{"version":1,"swapQuotes":{},"payouts":null}', /its payouts part is null/],
  ];

  it.each(CORRUPT)(
    'holding %s: the store refuses to open, says why, and leaves the file as it is',
    async (_what, content, problem) => {
      const file = tempFile();
      writeFileSync(file, content);
      const { lines, logger } = logCapture();
      const refused = await openBotStore(file, logger).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StateFileRefusedError);
      expect((refused as StateFileRefusedError).problem).toMatch(problem);
      expect((refused as Error).message).toContain(`the state file ${file} (DATA_FILE)`);
      expect(readFileSync(file, 'utf8')).toBe(content);
      expect(asideFiles(file, 'corrupt')).toEqual([]);
      expect(existsSync(`${file}.lock`)).toBe(false);
      expect(lines.join('\n')).toMatch(/ERROR the state file cannot be read as a whole/);
    },
  );

  it.each(CORRUPT)(
    'holding %s, with starting empty accepted: kept aside as corrupt, loudly, and the store starts empty',
    async (_what, content) => {
      const file = tempFile();
      writeFileSync(file, content);
      const { lines, logger } = logCapture();
      const store = await openBotStore(file, logger, undefined, { acceptEmptyState: true });
      expect(store.recoveredCorruptFile).toMatch(/state\.json\.corrupt-/);
      expect(readFileSync(store.recoveredCorruptFile!, 'utf8')).toBe(content);
      expect(lines.join('\n')).toMatch(/ERROR the state file was corrupt/);
      expect(Object.keys(store.read().swapQuotes)).toEqual([]);
      await store.close();
    },
  );

  it('a second corrupt file in the same millisecond does not overwrite the first one kept aside', async () => {
    const file = tempFile();
    const frozen = () => new Date('2026-11-22T00:00:00.000Z');
    writeFileSync(file, 'null');
    await (await openBotStore(file, undefined, frozen, { acceptEmptyState: true })).close();
    writeFileSync(file, '{"truncated":');
    await (await openBotStore(file, undefined, frozen, { acceptEmptyState: true })).close();
    const kept = asideFiles(file, 'corrupt')
      .map((path) => readFileSync(path, 'utf8'))
      .sort();
    expect(kept).toEqual(['null', '{"truncated":'].sort());
  });

  it('a missing file is a first start, but a missing file beside the quote archive it wrote is refused', async () => {
    const file = tempFile();
    await (await openBotStore(file)).close(); // first start: empty state, no complaint
    rmSync(file);
    writeFileSync(`${file}.quotes-2026-10.jsonl`, `${JSON.stringify(quote(GOOD_1))}\n`);
    await expect(openBotStore(file)).rejects.toThrow(
      /is missing, but the quote archive it wrote is beside it.*start once with --accept-empty-state/,
    );
    expect(existsSync(file)).toBe(false);
    const store = await openBotStore(file, undefined, undefined, { acceptEmptyState: true });
    expect(Object.keys(store.read().swapQuotes)).toEqual([]);
    await store.close();
  });
});

describe('ids with special names in the file', () => {
  it('`__proto__`, `constructor` and `toString` are plain keys: kept, never inherited, through updates, rollbacks and reopens', async () => {
    const file = tempFile();
    // JSON.parse makes `__proto__` an own key; the store must not drop it nor let it become a prototype.
    writeFileSync(
      file,
      `{"version":1,"swapQuotes":{"__proto__":${JSON.stringify(quote('__proto__'))},"constructor":${JSON.stringify(quote('constructor'))}},"alerts":{"alerted":{"__proto__":{"createdAt":"2026-11-21T00:00:00.000Z"}}}}`,
    );
    const store = await openBotStore(file);
    const constructorKey: string = 'constructor'; // typed as string, as an id from outside is
    const check = () => {
      const quotes = store.read().swapQuotes;
      expect(Object.keys(quotes).sort()).toEqual(['__proto__', 'constructor']);
      expect(quotes[constructorKey]?.requestedBy).toBe('U1');
      expect(quotes.toString).toBeUndefined();
      expect(Object.hasOwn(quotes, '__proto__')).toBe(true);
      expect(Object.keys(store.read().alerts.alerted)).toEqual(['__proto__']);
      expect(store.read().alerts.alerted.hasOwnProperty).toBeUndefined();
    };
    check();
    await expect(
      store.update((state) => {
        delete state.swapQuotes[constructorKey];
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    check();
    await store.update((state) => {
      state.swapQuotes[GOOD_1] = quote(GOOD_1) as never;
    });
    await store.close();
    const reopened = await openBotStore(file);
    expect(Object.keys(reopened.read().swapQuotes).sort()).toEqual([GOOD_1, '__proto__', 'constructor'].sort());
    expect(reopened.read().swapQuotes.toString).toBeUndefined();
    await reopened.close();
  });
});

// ---------------------------------------------------------------------------------------------------------
// The lock: a recycled pid must not block start-up; a live bot on the same file must.

const STATE_MODULE = fileURLToPath(new URL('../dist/src/store/lowdb/index.js', import.meta.url));

function spawnChild(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

/** Another process holding the state file through the bot's own store code (built in dist/). */
async function startHolder(file: string): Promise<ChildProcess> {
  const script = `const { openBotStore } = await import(process.argv[1]); await openBotStore(process.argv[2]); process.stdout.write('open\\n'); setInterval(() => {}, 1000);`;
  const child = spawnChild(process.execPath, ['--input-type=module', '-e', script, STATE_MODULE, file]);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the holder did not open the store: ${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('open')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', () => reject(new Error(`the holder exited: ${output}`)));
  });
  return child;
}

function startTicksOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

describe.runIf(existsSync('/proc/self/stat'))('the lock file', () => {
  it('a lock naming a live process that is not the bot which wrote it (a recycled pid) does not block start-up', async () => {
    const file = tempFile();
    // Our parent is alive, but it is not the process that wrote this lock: its start time differs.
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: process.ppid, startTicks: '1', host: hostname(), token: 'left-by-a-crashed-bot' }),
    );
    const store = await openBotStore(file);
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
    await store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('an old-style lock (a bare pid) now held by an unrelated live process (`sleep`) does not block start-up', async () => {
    const file = tempFile();
    const sleeper = spawnChild('sleep', ['30']);
    writeFileSync(`${file}.lock`, String(sleeper.pid));
    const store = await openBotStore(file);
    await store.close();
  });

  it('a lock held by a live bot process on the same file is still refused, and left in place', async () => {
    const file = tempFile();
    const holder = await startHolder(file);
    const lock = readFileSync(`${file}.lock`, 'utf8');
    expect(JSON.parse(lock)).toMatchObject({ pid: holder.pid, startTicks: startTicksOf(holder.pid!) });
    await expect(openBotStore(file)).rejects.toThrow(`in use by another running bot (pid ${holder.pid})`);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(lock);
    // Once that bot is gone (killed: its lock stays behind), the file opens.
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    expect(existsSync(`${file}.lock`)).toBe(true);
    const store = await openBotStore(file);
    await store.close();
  });
});
