// Withdrawals: read by id (empty-body 404 when unknown or foreign) and page-number list, newest first.
import { renderWithdrawal } from '../render.js';
import { type HandlerResult, notFoundEmpty, ok, validationFailed } from '../responses.js';
import type { WithdrawalRecord } from '../types.js';
import { Checker } from '../validation.js';
import type { OperationContext } from './context.js';

/** Defaults and bounds of the withdrawal list (not in docs/payments-api.md; our choice). */
const WITHDRAWAL_PAGE = { defaultPerPage: 20, maxPerPage: 100 } as const;

/** GET /1.0/merchant/asset-withdrawal-info?id= */
export function getWithdrawal(context: OperationContext): HandlerResult {
  const checker = new Checker().uuid(context.query.id, 'id');
  if (!checker.ok) return validationFailed(checker.errors);
  const withdrawal = context.state.owned(context.state.withdrawals, context.merchantId, String(context.query.id));
  return withdrawal ? ok(renderWithdrawal(context.state, withdrawal)) : notFoundEmpty();
}

/** Parses a positive integer query value; undefined when absent, null when invalid. */
function positiveInt(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) return null;
  const parsed = Number(value);
  return parsed >= 1 ? parsed : null;
}

/** GET /1.0/merchant/asset-withdrawals?page=&perPage= */
export function listWithdrawals(context: OperationContext): HandlerResult {
  const page = positiveInt(context.query.page);
  const perPage = positiveInt(context.query.perPage);
  const checker = new Checker()
    .check(page === null, 'page', 'page must be a positive integer')
    .check(perPage === null, 'perPage', 'perPage must be a positive integer')
    .check(
      typeof perPage === 'number' && perPage > WITHDRAWAL_PAGE.maxPerPage,
      'perPage',
      `perPage must not be greater than ${WITHDRAWAL_PAGE.maxPerPage}`,
    );
  if (!checker.ok) return validationFailed(checker.errors);
  const pageNumber = page ?? 1;
  const size = perPage ?? WITHDRAWAL_PAGE.defaultPerPage;
  // The merchant's withdrawals oldest first (createdAt, then id): the list is that order reversed.
  const table = context.state.withdrawals;
  const ordered = table.group('key', context.merchantId);
  const data: WithdrawalRecord[] = [];
  const first = (pageNumber - 1) * size;
  for (let position = first; position < Math.min(first + size, ordered.length); position += 1) {
    data.push(table.peek(ordered[ordered.length - 1 - position] as number));
  }
  return ok({
    totalCount: ordered.length,
    page: pageNumber,
    perPage: size,
    data: data.map((withdrawal) => renderWithdrawal(context.state, withdrawal)),
  });
}
