// Mass payouts: create a container, list tasks (newest first, cursor pages of 50), read a task.
import { randomUUID } from 'node:crypto';
import { compareKeys, firstIndex, paginate, paginateSorted, type SortKey } from '../pagination.js';
import { renderPayout, renderPayoutTask } from '../render.js';
import { badRequest, type HandlerResult, notFoundEmpty, ok, validationFailed } from '../responses.js';
import { effectiveMs } from '../time.js';
import type { PayoutTaskRecord } from '../types.js';
import { asObject, Checker } from '../validation.js';
import type { OperationContext } from './context.js';
import { CURSOR_PAGE_SIZE, inWindow, readListFilters } from './listing.js';

const TASK_STATUSES = ['pending', 'failed', 'success'] as const;

/**
 * POST /2.0/mass-payout/create-payout. Its response body is not in docs/payments-api.md: by default the record (id,
 * assetId, name, status, createdAt); `state.createPayoutAnswer` makes it an empty 200, a 200 without an id, or no
 * answer at all. In every case the container is made: the unknowns are in the answer, not in what happened.
 */
export function createPayout(context: OperationContext): HandlerResult {
  const body = asObject(context.body);
  if (!body) return validationFailed([{ field: 'body', messages: ['body must be a JSON object'] }]);
  const name = body.name;
  const checker = new Checker()
    .uuid(body.assetId, 'assetId')
    .check(typeof name !== 'string', 'name', 'name must be a string')
    .check(typeof name === 'string' && name.trim() === '', 'name', 'name should not be empty')
    .check(
      typeof name === 'string' && name.length > 255,
      'name',
      'name must be shorter than or equal to 255 characters',
    );
  if (!checker.ok) return validationFailed(checker.errors);
  const { state, merchantId } = context;
  const asset = state.owned(state.assets, merchantId, String(body.assetId));
  if (!asset) return badRequest('Asset not found', { errors: [{ field: 'assetId', messages: ['Asset not found'] }] });
  const payout = state.addPayout({
    id: randomUUID(),
    merchantId,
    assetId: asset.id,
    name: String(name),
    status: 'new',
    createdAt: state.now(),
  });
  switch (state.createPayoutAnswer) {
    case 'full':
      return ok(renderPayout(payout));
    case 'empty':
      return { status: 200 };
    case 'no_id': {
      const { id: _id, ...withoutId } = renderPayout(payout) as Record<string, unknown>;
      return ok(withoutId);
    }
    case 'hang':
      return { status: 200, hang: true };
  }
}

/** Sort key of a task: the instant its createdAt string shows, then its id. */
const taskKey = (task: PayoutTaskRecord): SortKey => [effectiveMs(task.id, task.createdAt), task.id];
const newestFirst = (a: SortKey, b: SortKey): number => compareKeys(b, a);

/** Orders tasks as the task list does: newest first, ties broken by id (descending). */
export function compareTasksNewestFirst(a: PayoutTaskRecord, b: PayoutTaskRecord): number {
  return newestFirst(taskKey(a), taskKey(b));
}

/** GET /2.0/mass-payout/tasks (a merchantId query parameter is ignored: the scope comes from the key). */
export function listPayoutTasks(context: OperationContext): HandlerResult {
  const { query, state, merchantId } = context;
  const checker = new Checker().uuid(query.assetId, 'assetId', false).uuid(query.payoutId, 'payoutId', false);
  const filters = readListFilters(checker, 'tasks', query, TASK_STATUSES);
  if (!checker.ok) return validationFailed(checker.errors);
  const matches = (task: PayoutTaskRecord): boolean =>
    task.merchantId === merchantId &&
    (filters.status === undefined || task.status === filters.status) &&
    (query.assetId === undefined || task.assetId === query.assetId) &&
    (query.payoutId === undefined || task.payoutId === query.payoutId) &&
    inWindow(effectiveMs(task.id, task.createdAt), filters);
  // Candidates: the merchant's tasks (of the status asked for), oldest first, cut to the createdAt window.
  const table = state.tasks;
  const ordered = table.group(
    'key',
    `${merchantId}|${filters.status === undefined ? 'all' : `status:${filters.status}`}`,
  );
  const timeOf = (handle: number): number => {
    const task = table.peek(handle);
    return effectiveMs(task.id, task.createdAt);
  };
  const lo =
    filters.from === undefined
      ? 0
      : firstIndex(ordered.length, (i) => timeOf(ordered[i] as number) >= (filters.from as number));
  const hi =
    filters.to === undefined
      ? ordered.length
      : firstIndex(ordered.length, (i) => timeOf(ordered[i] as number) > (filters.to as number));
  const count = Math.max(0, hi - lo);
  const page =
    count <= state.listScanLimit
      ? paginate(
          'tasks',
          ordered
            .slice(lo, Math.max(lo, hi))
            .map((handle) => table.peek(handle))
            .filter(matches),
          taskKey,
          newestFirst,
          filters.cursor,
          CURSOR_PAGE_SIZE,
        )
      : paginateSorted(
          'tasks',
          { length: count, at: (p) => table.peek(ordered[hi - 1 - p] as number) },
          matches,
          taskKey,
          newestFirst,
          filters.cursor,
          CURSOR_PAGE_SIZE,
        );
  return ok({
    data: page.data.map((task) => renderPayoutTask(state, task)),
    cursorPrevious: page.cursorPrevious,
    cursorNext: page.cursorNext,
  });
}

/** GET /2.0/mass-payout/task?id= */
export function getPayoutTask(context: OperationContext): HandlerResult {
  const checker = new Checker().uuid(context.query.id, 'id');
  if (!checker.ok) return validationFailed(checker.errors);
  const task = context.state.owned(context.state.tasks, context.merchantId, String(context.query.id));
  return task ? ok(renderPayoutTask(context.state, task)) : notFoundEmpty();
}
