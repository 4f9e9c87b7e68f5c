/**
 * The daily digest's records: the balance snapshot the bot keeps of each day (the API has no history,
 * so the 30-day chart is drawn from these), and the digest of each day, claimed once across replicas and
 * restarts. Days are calendar days in the digest's time zone, `YYYY-MM-DD`, so they also compare as strings.
 */
import { z } from 'zod';
import { SendAttempt } from '../alerts/records.js';

/** Snapshots older than this many days leave the store: the chart shows 30, the digest compares with yesterday. */
const SNAPSHOT_RETENTION_DAYS = 400;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One asset in a snapshot: its balance in base units and its USD value in cents (null when the API gave none). */
export const SnapshotAsset = z.object({
  symbol: z.string(),
  network: z.string(),
  decimals: z.number().int().nonnegative(),
  balance: z.string().regex(/^\d+$/),
  usdCents: z.string().regex(/^\d+$/).nullable(),
});
export type SnapshotAsset = z.infer<typeof SnapshotAsset>;

/** The balances of one day, as read when that day's digest was made (or first asked for). */
export const DailySnapshot = z.object({
  day: Day,
  /** When it was read (our clock, ISO). */
  at: z.string(),
  /** The sum of the assets' USD values in cents (assets without one count nothing). */
  totalUsdCents: z.string().regex(/^\d+$/),
  /** By asset id. */
  assets: z.record(z.string(), SnapshotAsset),
});
export type DailySnapshot = z.infer<typeof DailySnapshot>;

/** Where the digest's chart stands: uploaded into the digest's thread, or failed (the digest itself stands). */
const DigestChart = z.object({
  state: z.enum(['uploading', 'uploaded', 'failed']),
  at: z.string(),
  fileId: z.string().optional(),
  error: z.string().optional(),
});

/**
 * The digest of one day. Created (claimed) once per day by whichever replica polls; its words are fixed at the
 * claim, so a post retried after a crash says the same. `sending` is written before the post (a lost answer is
 * looked for in the channel before posting again, like alerts); `ts` once Slack accepted it.
 */
export const DigestRecord = z.object({
  day: Day,
  channel: z.string().min(1),
  claimedAt: z.string(),
  /** The message as composed at the claim (text and blocks), posted as is. */
  message: z.object({ text: z.string(), blocks: z.array(z.unknown()) }),
  sending: SendAttempt.optional(),
  ts: z.string().optional(),
  postedAt: z.string().optional(),
  /** Posting failed for good (the channel is gone, the bot is not in it): said in the log, not retried. */
  failed: z.object({ at: z.string(), error: z.string() }).optional(),
  chart: DigestChart.optional(),
});
export type DigestRecord = z.infer<typeof DigestRecord>;

/** The metadata key of a day's digest message: found again after a lost answer. */
export function digestKey(day: string): string {
  return `digest:${day}`;
}

/** The oldest day a store keeps snapshots of, given the newest day it holds. */
export function oldestKeptDay(newestDay: string): string {
  const newest = Date.parse(`${newestDay}T00:00:00Z`);
  return new Date(newest - (SNAPSHOT_RETENTION_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
}
