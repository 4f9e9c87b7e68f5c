/** The daily digest: composed from the records and one read of the assets, posted once a day, with its chart. */
export {
  createDigestService,
  type DigestService,
} from './service.js';
export {
  type BalanceSnapshots,
  createBalanceSnapshots,
  SNAPSHOT_CHECK_EVERY_MS,
  snapshotTime,
} from './snapshots.js';
