// Opaque cursor pagination for the task list and the gas manager list. A cursor names the boundary row by its
// sort key (not an offset), so rows added elsewhere in the order (e.g. new tasks at the top) do not shift the
// pages a client is walking. Cursors are base64url JSON: {k: list kind, d: direction, p: boundary key, i: inclusive}.

/** Sort key of a row; compared with the list's comparator. */
export type SortKey = ReadonlyArray<string | number>;

/** A decoded cursor. */
export interface Cursor {
  direction: 'next' | 'prev';
  key: SortKey;
  /** The boundary row itself is part of the requested page (only after an empty page). */
  inclusive: boolean;
}

/** Encodes a cursor for a list kind. */
function encodeCursor(kind: string, cursor: Cursor): string {
  const payload = {
    k: kind,
    d: cursor.direction === 'next' ? 'n' : 'p',
    p: cursor.key,
    ...(cursor.inclusive ? { i: 1 } : {}),
  };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** Decodes a cursor of a list kind; null when it is malformed or belongs to another list. */
export function decodeCursor(kind: string, text: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null) return null;
    const { k, d, p, i } = payload as Record<string, unknown>;
    if (k !== kind || (d !== 'n' && d !== 'p') || !Array.isArray(p)) return null;
    if (!p.every((part) => typeof part === 'string' || typeof part === 'number')) return null;
    return { direction: d === 'n' ? 'next' : 'prev', key: p as SortKey, inclusive: i === 1 };
  } catch {
    return null;
  }
}

/** One page plus the cursors around it. */
export interface Page<T> {
  data: T[];
  cursorPrevious: string | null;
  cursorNext: string | null;
}

/** Slices `items` (any order) into the page a cursor asks for; `compare` orders sort keys as the list shows them. */
export function paginate<T>(
  kind: string,
  items: readonly T[],
  keyOf: (item: T) => SortKey,
  compare: (a: SortKey, b: SortKey) => number,
  cursor: Cursor | null,
  pageSize: number,
): Page<T> {
  const sorted = [...items].sort((a, b) => compare(keyOf(a), keyOf(b)));
  let start = 0;
  let end = Math.min(pageSize, sorted.length);
  if (cursor) {
    const indexWhere = (test: (order: number) => boolean): number => {
      const found = sorted.findIndex((item) => test(compare(keyOf(item), cursor.key)));
      return found === -1 ? sorted.length : found;
    };
    const firstAfter = indexWhere((order) => order > 0);
    const firstAtOrAfter = indexWhere((order) => order >= 0);
    if (cursor.direction === 'next') {
      start = cursor.inclusive ? firstAtOrAfter : firstAfter;
      end = Math.min(start + pageSize, sorted.length);
    } else {
      end = cursor.inclusive ? firstAfter : firstAtOrAfter;
      start = Math.max(0, end - pageSize);
    }
  }
  const data = sorted.slice(start, end);
  const first = data[0];
  const last = data[data.length - 1];
  let cursorPrevious: string | null = null;
  let cursorNext: string | null = null;
  if (first && last) {
    if (start > 0) cursorPrevious = encodeCursor(kind, { direction: 'prev', key: keyOf(first), inclusive: false });
    if (end < sorted.length) cursorNext = encodeCursor(kind, { direction: 'next', key: keyOf(last), inclusive: false });
  } else if (cursor && start > 0) {
    // Walked past the end: offer the way back to the last rows before this point.
    const before = sorted[start - 1];
    if (before) cursorPrevious = encodeCursor(kind, { direction: 'prev', key: keyOf(before), inclusive: true });
  }
  return { data, cursorPrevious, cursorNext };
}

/** Compares sort keys part by part (numbers numerically, strings lexically). */
export function compareKeys(a: SortKey, b: SortKey): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const left = a[index];
    const right = b[index];
    if (left === right) continue;
    if (left === undefined) return -1;
    if (right === undefined) return 1;
    if (typeof left === 'number' && typeof right === 'number') return left - right;
    return String(left) < String(right) ? -1 : 1;
  }
  return 0;
}

/** Smallest i in [0, length) for which the monotone `test` holds, or `length`. */
export function firstIndex(length: number, test: (index: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Rows already in list order (a superset of the list's rows), read by position. */
export interface SortedRows<T> {
  length: number;
  at(position: number): T;
}

/**
 * The page `paginate` would give for the rows of `rows` that `matches` selects, without filtering or sorting
 * them all: a binary search finds the cursor's place and the page is walked from there (plus one row each
 * side, to know whether there are more). `rows` must be ordered by `compare` over `keyOf`.
 */
export function paginateSorted<T>(
  kind: string,
  rows: SortedRows<T>,
  matches: (item: T) => boolean,
  keyOf: (item: T) => SortKey,
  compare: (a: SortKey, b: SortKey) => number,
  cursor: Cursor | null,
  pageSize: number,
): Page<T> {
  const boundary = (test: (order: number) => boolean): number =>
    cursor ? firstIndex(rows.length, (position) => test(compare(keyOf(rows.at(position)), cursor.key))) : 0;
  const matchFrom = (position: number): number => {
    for (let p = position; p < rows.length; p += 1) if (matches(rows.at(p))) return p;
    return -1;
  };
  const matchBefore = (position: number): number => {
    for (let p = position - 1; p >= 0; p -= 1) if (matches(rows.at(p))) return p;
    return -1;
  };
  const positions: number[] = [];
  if (!cursor || cursor.direction === 'next') {
    const start = cursor ? boundary(cursor.inclusive ? (order) => order >= 0 : (order) => order > 0) : 0;
    for (let p = matchFrom(start); p !== -1 && positions.length < pageSize; p = matchFrom(p + 1)) positions.push(p);
    if (positions.length === 0) {
      // Walked past the end: offer the way back to the last rows before this point.
      const before = cursor ? matchBefore(start) : -1;
      const previous =
        before === -1 ? null : encodeCursor(kind, { direction: 'prev', key: keyOf(rows.at(before)), inclusive: true });
      return { data: [], cursorPrevious: previous, cursorNext: null };
    }
  } else {
    const end = boundary(cursor.inclusive ? (order) => order > 0 : (order) => order >= 0);
    for (let p = matchBefore(end); p !== -1 && positions.length < pageSize; p = matchBefore(p)) positions.unshift(p);
    if (positions.length === 0) return { data: [], cursorPrevious: null, cursorNext: null };
  }
  const firstPosition = positions[0] as number;
  const lastPosition = positions[positions.length - 1] as number;
  const data = positions.map((p) => rows.at(p));
  const first = data[0] as T;
  const last = data[data.length - 1] as T;
  return {
    data,
    cursorPrevious:
      matchBefore(firstPosition) === -1
        ? null
        : encodeCursor(kind, { direction: 'prev', key: keyOf(first), inclusive: false }),
    cursorNext:
      matchFrom(lastPosition + 1) === -1
        ? null
        : encodeCursor(kind, { direction: 'next', key: keyOf(last), inclusive: false }),
  };
}
