import type { GasDistribution } from '../../../../payments/index.js';
import { gasFacts, NOT_ENOUGH_DONOR_BALANCE } from '../../kinds/gas.js';
import { failureKey } from '../../kinds/index.js';
import type { AlertSourceState } from '../../records.js';
import { iso, isoMs, listFloor, listOf } from '../place.js';
import { POLL_RULES, type PollDeps } from '../poll-rules.js';
import { gasRecheckSince, oldestRecheckedSince, windowCovers, windowQueryFrom } from '../recheck.js';
import { checkAborted, readAll, readCursorList } from '../walk.js';
import { addFound, addSettled, type Detection, detection, isBaseline, type ReadContext, reader } from './read.js';

const FINAL_GAS_STATUSES = new Set(['success', 'failed', 'cancelled']);
const SECOND = 1_000;

/**
 * Gas top-ups: the list has no order and hides cancelled rows unless asked, so the default list and the
 * `status=cancelled` list are read in full from the floor (one page each when idle). Rows pending below the
 * floor are followed through `status=pending` over the window the follow plan chose; one inside the window
 * that left it is found again by a narrow createdAt window. A followed row pending for less than an hour that
 * turned failed is found at the next poll by reading `status=failed` from the oldest such row (one page).
 * A row matches on its subStatus, whatever its status.
 */
export async function detectGas(deps: PollDeps, source: AlertSourceState, context: ReadContext): Promise<Detection> {
  const r = reader(deps, source, context.now);
  const window = context.window;
  let listed: Map<string, GasDistribution> | undefined;
  if (window) {
    const from = windowQueryFrom(window, r.nowMs);
    const pending = await readAll(
      deps.payments.gasDistributionPages({ status: 'pending', ...(from ? { createdAtFrom: from } : {}) }),
      deps.signal,
    );
    r.requests += pending.requests;
    listed = new Map(pending.rows.map((row) => [row.id, row]));
  }
  const seen = new Map<string, GasDistribution>();
  const floors: number[] = [];
  for (const [name, status] of [
    ['default', undefined],
    ['cancelled', 'cancelled'],
  ] as const) {
    const list = listOf(source, name);
    const floor = listFloor(source, list, r.nowMs, deps.lookbackMs);
    floors.push(floor);
    const read = await readCursorList(
      deps,
      (from, cursor) =>
        deps.payments.listGasDistributions({ ...(status ? { status } : {}), createdAtFrom: from, cursor }),
      list,
      floor,
      r.now,
      false,
    );
    r.requests += read.requests;
    r.lists[name] = read.list;
    for (const row of read.rows) seen.set(row.id, row);
  }
  // Cancelled rows are rare: the cancelled list, read in full AFTER the default list, has seen every cancelled row
  // up to the default list's watermark (same API clock), so it moves up with it. Otherwise it would re-read, and
  // keep keys for, everything since its own last row at every poll. (Never the other way round: the default
  // list was read first.)
  const [dflt, cancelled] = [r.lists.default!, r.lists.cancelled!];
  if (
    !dflt.walk &&
    !cancelled.walk &&
    dflt.watermark !== undefined &&
    (cancelled.watermark === undefined || cancelled.watermark < dflt.watermark)
  ) {
    r.lists.cancelled = { ...cancelled, watermark: dflt.watermark };
  }
  const syncing = listed !== undefined && source.pendingSyncedAt === undefined;
  const handled = new Set(source.handledPending ?? []);
  // A followed row created within the last hour (and ALERT_LOOKBACK) and below the floor of the reads above may
  // have turned failed since the last poll: read the failed rows from the oldest such row (few: one page at
  // most), so that it is alerted now rather than at its band's next follow-up. A row already alerted while pending (short of donor
  // balance) needs no haste: the follow-ups tell how it ended.
  const rechecked = new Map<string, GasDistribution>();
  const recheckFrom =
    dflt.walk || cancelled.walk
      ? undefined
      : oldestRecheckedSince(
          source.tracking,
          gasRecheckSince(r.nowMs, deps.lookbackMs),
          Math.min(...floors),
          new Set([...handled, ...seen.keys()]),
        );
  if (recheckFrom !== undefined) {
    checkAborted(deps.signal);
    const failed = await readAll(
      deps.payments.gasDistributionPages(
        { status: 'failed', createdAtFrom: new Date(recheckFrom) },
        POLL_RULES.recheckPagesPerPoll,
      ),
      deps.signal,
    );
    r.requests += failed.requests;
    for (const row of failed.rows)
      if (Object.hasOwn(source.tracking, row.id) && !seen.has(row.id)) rechecked.set(row.id, row);
  }
  const apply = (row: GasDistribution, via: 'scan' | 'follow') => {
    const pending = !FINAL_GAS_STATUSES.has(row.status);
    if (pending) {
      r.tracking[row.id] = iso(row.createdAt);
    } else {
      // Left pending: an alert about it (stuck, or short of donor balance and now sent) learns how it ended.
      addSettled(r, failureKey('gas', row.id), row.id, row.status, row.subStatus);
      delete r.tracking[row.id];
    }
    if (row.subStatus === NOT_ENOUGH_DONOR_BALANCE) {
      // Matched while pending: found once; it stays in the pending list (and may turn failed), the same top-up.
      // It is still followed, so that its alert resolves itself once the top-up is sent.
      if (handled.has(row.id)) {
        if (!pending) handled.delete(row.id);
        return;
      }
      if (pending) handled.add(row.id);
      // Found by the first sync of the pending list after an upgrade and below the floor: the version before
      // read that range, so it was handled then.
      const handledBefore =
        syncing && source.initializedAt !== undefined && row.createdAt.getTime() < Math.min(...floors);
      // updatedAt: the time of the row's last change, the one that made it short of donor balance or a later one.
      addFound(r, failureKey('gas', row.id), row.createdAt, gasFacts(row), via, {
        baseline: handledBefore || isBaseline(r, row.createdAt, via),
        changedAt: row.updatedAt,
      });
    } else if (!pending) {
      handled.delete(row.id);
    }
  };
  for (const row of seen.values()) apply(row, 'scan');
  for (const row of rechecked.values()) apply(row, 'follow');
  if (listed && window) {
    for (const row of listed.values()) if (!seen.has(row.id) && !rechecked.has(row.id)) apply(row, 'follow');
    let lookups = 0;
    for (const [id, createdAt] of Object.entries(r.tracking)) {
      if (listed.has(id) || seen.has(id) || rechecked.has(id) || !windowCovers(window, isoMs(createdAt), r.nowMs))
        continue;
      if (lookups >= POLL_RULES.lookupsPerPoll) break; // the rest next poll
      lookups += 1;
      // Left the pending list: find its final state in a narrow window around its createdAt (whole seconds on
      // the wire), first in the default list, then among the cancelled rows the default list hides.
      const at = isoMs(createdAt);
      const around = {
        createdAtFrom: new Date(Math.floor(at / SECOND) * SECOND - SECOND),
        createdAtTo: new Date(Math.ceil(at / SECOND) * SECOND + SECOND),
      };
      let row: GasDistribution | undefined;
      for (const status of [undefined, 'cancelled'] as const) {
        checkAborted(deps.signal);
        const rows = await readAll(
          deps.payments.gasDistributionPages({ ...around, ...(status ? { status } : {}) }),
          deps.signal,
        );
        r.requests += rows.requests;
        row = rows.rows.find((candidate) => candidate.id === id);
        if (row) break;
      }
      if (row) apply(row, 'follow');
      else {
        deps.logger.warn(
          'alert poller: a followed gas top-up left the pending list and is not found around its createdAt; it is no longer followed',
          { id },
        );
        delete r.tracking[id];
      }
    }
  }
  // Matched rows no longer pending and not seen in this poll: nothing will list them as pending again. Only a
  // read of the whole pending list can tell (the ids are kept without their createdAt). A row still followed
  // keeps its id until its final state is read (else that read would find it again as a new failure).
  if (listed && window === 'all')
    for (const id of handled)
      if (!listed.has(id) && !seen.has(id) && !Object.hasOwn(r.tracking, id)) handled.delete(id);
  return detection(r, {
    ...(window
      ? {
          pendingSyncedAt: source.pendingSyncedAt ?? iso(r.now),
          windowReads: { ...source.windowReads, [window]: iso(r.now) },
        }
      : {}),
    handledPending: [...handled],
  });
}
