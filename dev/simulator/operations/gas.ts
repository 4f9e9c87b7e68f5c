// Gas manager history: cursor pages of 50 in a stable order that is deliberately NOT chronological (by id), so
// consumers must walk every page. Cancelled rows appear only when status=cancelled is asked for.
import { compareKeys, firstIndex, type Page, paginate, paginateSorted, type SortKey } from '../pagination.js';
import { renderGasDistribution } from '../render.js';
import { type HandlerResult, ok, validationFailed } from '../responses.js';
import { effectiveMs } from '../time.js';
import type { GasDistributionRecord } from '../types.js';
import { Checker } from '../validation.js';
import type { OperationContext } from './context.js';
import { CURSOR_PAGE_SIZE, inWindow, readListFilters } from './listing.js';

const GAS_STATUSES = ['pending', 'cancelled', 'failed', 'success'] as const;

/** Sort key of a gas row: its id. */
const gasKey = (row: GasDistributionRecord): SortKey => [row.id];

/** The rows a gas list request selects, in list order (exported so the control API can tell which page a row is on). */
export function selectGasRows(
  rows: Iterable<GasDistributionRecord>,
  merchantId: string,
  filters: {
    status?: string | undefined;
    networkId?: string | undefined;
    from?: number | undefined;
    to?: number | undefined;
  },
): GasDistributionRecord[] {
  return [...rows].filter((row) => selects(row, merchantId, filters)).sort((a, b) => compareKeys(gasKey(a), gasKey(b)));
}

/** Whether a gas list request selects the row. */
function selects(
  row: GasDistributionRecord,
  merchantId: string,
  filters: {
    status?: string | undefined;
    networkId?: string | undefined;
    from?: number | undefined;
    to?: number | undefined;
  },
): boolean {
  return (
    row.merchantId === merchantId &&
    (filters.status === undefined ? row.status !== 'cancelled' : row.status === filters.status) &&
    (filters.networkId === undefined || row.networkId === filters.networkId) &&
    inWindow(effectiveMs(row.id, row.createdAt), {
      cursor: null,
      status: undefined,
      from: filters.from,
      to: filters.to,
    })
  );
}

/** GET /2.0/gas-manager/list */
export function listGasDistributions(context: OperationContext): HandlerResult {
  const { query, state, merchantId } = context;
  const checker = new Checker();
  const filters = readListFilters(checker, 'gas', query, GAS_STATUSES);
  if (!checker.ok) return validationFailed(checker.errors);
  const wanted = { ...filters, networkId: query.networkId };
  const matches = (row: GasDistributionRecord): boolean => selects(row, merchantId, wanted);
  const table = state.gas;
  // Candidates: the id-ordered group the status picks, or the rows inside the createdAt window (time order).
  const byIdGroup = table.group(
    'id',
    `${merchantId}|${filters.status === undefined ? 'default' : `status:${filters.status}`}`,
  );
  const byTime = table.group('time', merchantId);
  const timeOf = (handle: number): number => {
    const row = table.peek(handle);
    return effectiveMs(row.id, row.createdAt);
  };
  const lo =
    filters.from === undefined
      ? 0
      : firstIndex(byTime.length, (i) => timeOf(byTime[i] as number) >= (filters.from as number));
  const hi =
    filters.to === undefined
      ? byTime.length
      : firstIndex(byTime.length, (i) => timeOf(byTime[i] as number) > (filters.to as number));
  const inWindowCount = Math.max(0, hi - lo);
  let page: Page<GasDistributionRecord>;
  if (byIdGroup.length <= state.listScanLimit) {
    page = paginate(
      'gas',
      byIdGroup.map((handle) => table.peek(handle)).filter(matches),
      gasKey,
      compareKeys,
      filters.cursor,
      CURSOR_PAGE_SIZE,
    );
  } else if (inWindowCount <= state.listScanLimit) {
    const rows = byTime
      .slice(lo, Math.max(lo, hi))
      .map((handle) => table.peek(handle))
      .filter(matches);
    page = paginate('gas', rows, gasKey, compareKeys, filters.cursor, CURSOR_PAGE_SIZE);
  } else {
    page = paginateSorted(
      'gas',
      { length: byIdGroup.length, at: (p) => table.peek(byIdGroup[p] as number) },
      matches,
      gasKey,
      compareKeys,
      filters.cursor,
      CURSOR_PAGE_SIZE,
    );
  }
  return ok({
    data: page.data.map((row) => renderGasDistribution(state, row)),
    cursorPrevious: page.cursorPrevious,
    cursorNext: page.cursorNext,
  });
}
