// The lowdb state file's lock: one bot process at a time on one file (a stale lock of a dead process is taken over).
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { StoreError } from '../../kernel/store-error.js';

/** What a lock file says about its holder. Old versions of the bot wrote the bare pid. */
interface LockOwner {
  pid: number;
  /** `/proc/<pid>/stat` field 22 (clock ticks after boot): together with the pid it names one process. */
  startTicks?: string;
  host?: string;
  token?: string;
}

/** A lock this process holds. */
export interface HeldLock {
  /** Removes the lock file if it is still ours (never another process's lock). */
  release(): void;
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux architecture Node supports

/** Field 22 of `/proc/<pid>/stat`, or undefined where there is no /proc (or no such process). */
function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 is the command name in parentheses and may itself hold spaces or ')': read after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[22 - 3];
  } catch {
    return undefined;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When the process started (ms since the epoch), from /proc; undefined where /proc is missing. */
function processStartedAtMs(pid: number): number | undefined {
  const ticks = processStartTicks(pid);
  if (ticks === undefined) return undefined;
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (btime === undefined) return undefined;
    return Number(btime) * 1000 + (Number(ticks) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function readOwner(text: string): LockOwner | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const parsed = JSON.parse(trimmed) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return {
      pid: parsed.pid,
      ...(typeof parsed.startTicks === 'string' ? { startTicks: parsed.startTicks } : {}),
      ...(typeof parsed.host === 'string' ? { host: parsed.host } : {}),
      ...(typeof parsed.token === 'string' ? { token: parsed.token } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Why the lock's holder may still be running, or undefined when the lock is stale. A pid alone proves
 * nothing: after a crash the kernel hands the number to some other process. So the holder counts as live
 * only when a process with that pid exists AND it is the same process (same start time), or, for a bare-pid
 * lock of an older version, when it is a node process that started before the lock was written.
 */
function liveHolder(owner: LockOwner, lockFile: string): string | undefined {
  if (owner.host !== undefined && owner.host !== hostname()) {
    // Another machine (a shared disk): its processes cannot be checked from here.
    return `pid ${owner.pid} on host ${owner.host}`;
  }
  if (owner.pid === process.pid || !processIsAlive(owner.pid)) return undefined;
  const startTicks = processStartTicks(owner.pid);
  if (startTicks === undefined) {
    // No /proc (not Linux) or the process just ended: trust the pid, as before.
    return processIsAlive(owner.pid) ? `pid ${owner.pid}` : undefined;
  }
  if (owner.startTicks !== undefined) return owner.startTicks === startTicks ? `pid ${owner.pid}` : undefined;
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${owner.pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
  const startedAt = processStartedAtMs(owner.pid);
  let writtenAt = Infinity;
  try {
    writtenAt = statSync(lockFile).mtimeMs;
  } catch {
    return undefined;
  }
  const isNode = /^(?:[^\0]*\/)?node[^\0/]*\0/.test(cmdline);
  // A second of slack: the start time is in clock ticks, the mtime may be coarse.
  const startedBeforeLock = startedAt === undefined || startedAt <= writtenAt + 1000;
  return isNode && startedBeforeLock ? `pid ${owner.pid}` : undefined;
}

/**
 * Takes `lockFile` so two processes never share one state file (lowdb loses writes when they do). The lock
 * holds pid, process start time, host and a random token, written whole before the lock appears (a temp file
 * hard-linked into place), so nobody ever reads a half-written lock. A stale lock (its process is gone, or
 * the pid now belongs to another process) is taken over; a live bot's lock is refused.
 */
export function acquireLock(lockFile: string): HeldLock {
  const token = randomBytes(12).toString('hex');
  const owner: LockOwner = { pid: process.pid, host: hostname(), token, ...withStartTicks(process.pid) };
  const content = `${JSON.stringify(owner)}\n`;
  const temp = `${lockFile}.${token}.tmp`;
  const fd = openSync(temp, 'wx');
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(temp, lockFile);
        return {
          release() {
            try {
              if (readFileSync(lockFile, 'utf8') === content) unlinkSync(lockFile);
            } catch {
              // already gone
            }
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let text: string;
      try {
        text = readFileSync(lockFile, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
        throw error;
      }
      const holder = readOwner(text);
      const live = holder === undefined ? undefined : liveHolder(holder, lockFile);
      if (live !== undefined)
        throw new StoreError(`The state file is in use by another running bot (${live}): ${lockFile}`);
      // Stale. Remove it only if it is still the lock we judged (a narrow race with another starter remains).
      try {
        if (readFileSync(lockFile, 'utf8') === text) unlinkSync(lockFile);
      } catch {
        // gone meanwhile
      }
    }
    throw new StoreError(`Could not lock the state file: ${lockFile}`);
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
}

function withStartTicks(pid: number): { startTicks?: string } {
  const ticks = processStartTicks(pid);
  return ticks === undefined ? {} : { startTicks: ticks };
}
