// Gas manager history: cursor pages of 50 in a stable order that is deliberately NOT chronological (by id), so
// consumers must walk every page. Cancelled rows appear only when status=cancelled is asked for.
import { compareKeys, paginate, type SortKey } from '../pagination.js';
import { renderGasDistribution } from '../render.js';
import { ok, validationFailed, type HandlerResult } from '../responses.js';
import { effectiveMs } from '../time.js';
import type { GasDistributionRecord } from '../types.js';
import { Checker } from '../validation.js';
import type { OperationContext } from './context.js';
import { CURSOR_PAGE_SIZE, inWindow, readListFilters } from './listing.js';

const GAS_STATUSES = ['pending', 'cancelled', 'failed', 'success'] as const;

/** Sort key of a gas row: its id. */
export const gasKey = (row: GasDistributionRecord): SortKey => [row.id];

/** The rows a gas list request selects, in list order (exported so the control API can tell which page a row is on). */
export function selectGasRows(
  rows: Iterable<GasDistributionRecord>,
  merchantId: string,
  filters: { status?: string | undefined; networkId?: string | undefined; from?: number | undefined; to?: number | undefined },
): GasDistributionRecord[] {
  return [...rows]
    .filter(
      (row) =>
        row.merchantId === merchantId &&
        (filters.status === undefined ? row.status !== 'cancelled' : row.status === filters.status) &&
        (filters.networkId === undefined || row.networkId === filters.networkId) &&
        inWindow(effectiveMs(row.id, row.createdAt), { cursor: null, status: undefined, from: filters.from, to: filters.to }),
    )
    .sort((a, b) => compareKeys(gasKey(a), gasKey(b)));
}

/** GET /2.0/gas-manager/list */
export function listGasDistributions(context: OperationContext): HandlerResult {
  const { query, state, merchantId } = context;
  const checker = new Checker();
  const filters = readListFilters(checker, 'gas', query, GAS_STATUSES);
  if (!checker.ok) return validationFailed(checker.errors);
  const rows = selectGasRows(state.gas.values(), merchantId, { ...filters, networkId: query.networkId });
  const page = paginate('gas', rows, gasKey, compareKeys, filters.cursor, CURSOR_PAGE_SIZE);
  return ok({
    data: page.data.map((row) => renderGasDistribution(state, row)),
    cursorPrevious: page.cursorPrevious,
    cursorNext: page.cursorNext,
  });
}
