// Query parsing shared by the two cursor-paginated lists (tasks and gas manager).
import { type Cursor, decodeCursor } from '../pagination.js';
import { parseIsoWithOffset } from '../time.js';
import type { Checker } from '../validation.js';

/** Page size of the task list and the gas manager list (fixed by the service). */
export const CURSOR_PAGE_SIZE = 50;

/** Parsed common filters of a cursor list. */
export interface ListFilters {
  cursor: Cursor | null;
  status: string | undefined;
  from: number | undefined;
  to: number | undefined;
}

/** Reads cursor, status and createdAt bounds, recording field errors on `checker`. */
export function readListFilters(
  checker: Checker,
  kind: string,
  query: Record<string, string>,
  statuses: readonly string[],
): ListFilters {
  const cursor = query.cursor === undefined ? null : decodeCursor(kind, query.cursor);
  checker.check(query.cursor !== undefined && cursor === null, 'cursor', 'cursor is invalid');
  const status = query.status;
  checker.check(
    status !== undefined && !statuses.includes(status),
    'status',
    `status must be one of the following values: ${statuses.join(', ')}`,
  );
  const date = (field: 'createdAtFrom' | 'createdAtTo'): number | undefined => {
    const raw = query[field];
    if (raw === undefined) return undefined;
    const parsed = parseIsoWithOffset(raw);
    checker.check(parsed === null, field, `${field} must be a valid ISO 8601 date string with offset`);
    return parsed ?? undefined;
  };
  return { cursor, status, from: date('createdAtFrom'), to: date('createdAtTo') };
}

/** True when `ms` lies in the inclusive [from, to] window. */
export function inWindow(ms: number, filters: ListFilters): boolean {
  return (filters.from === undefined || ms >= filters.from) && (filters.to === undefined || ms <= filters.to);
}
