/** The daily digest: composed from the records and one read of the assets, posted once a day, with its chart. */
export { CHART_ASSETS, CHART_DAYS, chartAltText, chartSnapshots, renderDigestChart } from './chart.js';
export { balancesView, composeDigest, dailySnapshotOf } from './compose.js';
export { dayBefore, digestDue, dueInstant, localDay } from './schedule.js';
export {
  BALANCE_READ_GRACE_MS,
  createDigestService,
  DIGEST_LOOKUP_GIVE_UP_MS,
  DIGEST_SETTLE_AFTER_MS,
  type DigestSchedule,
  type DigestService,
  type DigestServiceOptions,
  type DigestSlack,
  settleDigestPost,
} from './service.js';
export {
  type BalanceSnapshots,
  createBalanceSnapshots,
  SNAPSHOT_CHECK_EVERY_MS,
  snapshotTime,
} from './snapshots.js';
