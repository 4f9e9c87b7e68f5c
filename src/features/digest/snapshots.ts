/**
 * The daily balance snapshot: one reading of the assets a day, kept by a job of its own (src/jobs, "daily balance
 * snapshot") whether or not a daily digest is set. The runway measures on these snapshots, the digest compares with
 * yesterday's and draws its chart from them.
 *
 * - When: at DIGEST_AT when it is set (so the digest and the runway read the same reading), else at 00:05 in
 *   ALERT_TIME_ZONE. Days are calendar days of that zone; the due rule is the digest's (schedule.ts: daylight saving
 *   included, late rather than never until the day ends, so a bot started after the time takes it at start).
 * - Once a day across replicas and restarts: the store keeps a day's first snapshot only (keepSnapshot); only the
 *   replica holding the poller's lease reads the assets, and only when the day has none yet.
 */
import { errorFields, type Logger } from '../../logger.js';
import type { PaymentsClient } from '../../payments/index.js';
import type { BotRepositories } from '../repositories.js';
import { dailySnapshotOf, readProblemOf } from './compose.js';
import type { DigestTime } from './rules.js';
import { digestDue } from './schedule.js';

/** Without DIGEST_AT the snapshot is taken at 00:05 of ALERT_TIME_ZONE: just after the day begins. */
const DEFAULT_SNAPSHOT_HOUR = 0;
const DEFAULT_SNAPSHOT_MINUTE = 5;
/** How often the snapshot job checks whether today's snapshot is due and missing. */
export const SNAPSHOT_CHECK_EVERY_MS = 60_000;

/** When the daily snapshot is taken: DIGEST_AT when set, else 00:05 in ALERT_TIME_ZONE. */
export function snapshotTime(digestAt: DigestTime | undefined, alertTimeZone: string): DigestTime {
  return digestAt ?? { hour: DEFAULT_SNAPSHOT_HOUR, minute: DEFAULT_SNAPSHOT_MINUTE, timeZone: alertTimeZone };
}

export interface BalanceSnapshotOptions {
  store: Pick<BotRepositories, 'balances'>;
  payments: Pick<PaymentsClient, 'listAssets'>;
  now: () => Date;
  logger: Logger;
  /** When the snapshot is taken (snapshotTime). */
  at: DigestTime;
  /** Replicated deployments: only the replica holding the poller's lease reads the assets for the snapshot. */
  leadership?: { tryLead(): Promise<boolean> };
}

/** The daily balance snapshot. */
export interface BalanceSnapshots {
  /** When it is taken, in its zone (the days of the snapshots are in that zone). */
  readonly at: DigestTime;
  /**
   * One check now (the job's run): when today's snapshot is due and none is kept, this replica (if it leads) reads
   * the assets and keeps it. One check at a time; a failed read is logged and tried at the next check. Never throws.
   */
  check(): Promise<void>;
}

/** Builds the daily snapshot. */
export function createBalanceSnapshots(options: BalanceSnapshotOptions): BalanceSnapshots {
  const { logger, at } = options;
  let inFlight: Promise<void> | undefined;

  async function checkOnce(): Promise<void> {
    const now = options.now();
    const { day, due } = digestDue(now, at);
    if (!due) return;
    const kept = await options.store.balances.listSnapshots(day);
    if (kept.some((snapshot) => snapshot.day === day)) return;
    // Asked only when there is something to do, so followers do not contend for the lease every minute.
    if (options.leadership && !(await options.leadership.tryLead())) return;
    let assets: Awaited<ReturnType<PaymentsClient['listAssets']>>;
    try {
      assets = await options.payments.listAssets();
    } catch (error) {
      logger.warn('daily balance snapshot: could not read the balances; trying again at the next check', {
        day,
        problem: readProblemOf(error),
        error: errorFields(error),
      });
      return;
    }
    const result = await options.store.balances.keepSnapshot(dailySnapshotOf(assets, day, options.now()));
    if (result.kept) logger.info('daily balance snapshot kept', { day, assets: assets.length });
  }

  return {
    at,
    check() {
      if (inFlight) return inFlight;
      inFlight = checkOnce()
        .catch((error: unknown) => {
          logger.warn('daily balance snapshot: the check failed; the next one tries again', {
            error: errorFields(error),
          });
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
  };
}
