// One kind of record (withdrawals, payout tasks, gas distributions) with the indexes its list needs. Rows are
// either objects (seed, tests, API) or virtual rows of a bulk history segment (columns, see bulk.ts) that become
// objects only when read. Each index is an array of row handles sorted by the list's order, split in groups
// (merchant, merchant + status…), so that a filtered page is a binary search plus a walk over the page, not a
// sort of every row. Mutate rows through the table (SimState's update methods): a field the indexes use that
// changes behind the table's back leaves the row in its old place.

/** A row's number inside its table. */
export type Handle = number;

/** What the index groups are computed from (a light view, so that bulk rows need not be materialized). */
export interface GroupFields {
  merchantId: string;
  status: string;
}

/** Rows kept as columns: materialized on demand, identified by a counter-derived id. */
export interface BulkSegment<T> {
  readonly count: number;
  readonly merchantId: string;
  idOf(n: number): string;
  /** The row number of a bulk id, or undefined when the id is not one of this segment's. */
  indexOfId(id: string): number | undefined;
  /** A fresh object for row n (from the columns). */
  materialize(n: number): T;
  status(n: number): string;
}

/** One ordering of the rows and the groups a row belongs to in it. */
export interface TableOrder<T> {
  /** Ascending order of two rows; 0 only for the same row. */
  compare(a: T, b: T): number;
  /** Names of the groups (each one sorted array) the row is listed in. */
  groups(row: GroupFields): readonly string[];
}

/** Records of one kind, Map-like (get/has/values/size), with sorted group indexes. */
export class RecordTable<T extends { id: string; merchantId: string; status: string }, O extends string = string> {
  private readonly objects = new Map<Handle, T>();
  private readonly handles = new Map<string, Handle>();
  private segment: { base: Handle; rows: BulkSegment<T> } | undefined;
  private nextHandle = 0;
  private readonly indexes = new Map<O, Map<string, Handle[]>>();

  constructor(private readonly orders: Record<O, TableOrder<T>>) {
    for (const name of Object.keys(orders) as O[]) this.indexes.set(name, new Map());
  }

  /** Number of rows (objects and bulk rows). */
  get size(): number {
    let size = this.segment?.rows.count ?? 0;
    for (const handle of this.handles.values()) if (!this.isBulk(handle)) size += 1;
    return size;
  }

  /** The live record with this id (a bulk row becomes an object, kept, so changes to it last), or undefined. */
  get(id: string): T | undefined {
    const handle = this.handleOf(id);
    return handle === undefined ? undefined : this.live(handle);
  }

  has(id: string): boolean {
    return this.handleOf(id) !== undefined;
  }

  /** Every row, objects first; bulk rows not yet read come as fresh copies. */
  *values(): IterableIterator<T> {
    for (const row of this.objects.values()) yield row;
    const segment = this.segment;
    if (!segment) return;
    for (let n = 0; n < segment.rows.count; n += 1) {
      if (!this.objects.has(segment.base + n)) yield segment.rows.materialize(n);
    }
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.values();
  }

  /** The rows kept as objects (added one by one, or bulk rows read since); no bulk row is materialized. */
  objectRows(): IterableIterator<T> {
    return this.objects.values();
  }

  /** Adds a row, or replaces the row with the same id. */
  add(row: T): T {
    const existing = this.handleOf(row.id);
    if (existing !== undefined) {
      this.unindex(existing);
      this.objects.set(existing, row);
      this.handles.set(row.id, existing);
      this.index(existing);
      return row;
    }
    const handle = this.nextHandle;
    this.nextHandle += 1;
    this.objects.set(handle, row);
    this.handles.set(row.id, handle);
    this.index(handle);
    return row;
  }

  /** Applies `change` to the live row and moves it in the indexes; undefined when the id is unknown. */
  update(id: string, change: (row: T) => void): T | undefined {
    const handle = this.handleOf(id);
    if (handle === undefined) return undefined;
    const row = this.live(handle);
    this.unindex(handle);
    change(row);
    this.index(handle);
    return row;
  }

  /** The row behind a handle without keeping a bulk row as an object (for lists: read, render, forget). */
  peek(handle: Handle): T {
    const row = this.objects.get(handle);
    if (row) return row;
    const segment = this.segment;
    if (!segment || !this.isBulk(handle)) throw new Error(`no row ${handle}`);
    return segment.rows.materialize(handle - segment.base);
  }

  /** The sorted handles of one group of one order (ascending); empty when the group has no row. Do not mutate. */
  group(order: O, group: string): readonly Handle[] {
    return this.indexes.get(order)?.get(group) ?? [];
  }

  /** True when the id is one of the bulk segment's rows. */
  isBulkId(id: string): boolean {
    return this.segment?.rows.indexOfId(id) !== undefined;
  }

  /** Handle of the bulk row n (for callers that know the segment's layout, e.g. gas pipelines). */
  bulkHandle(n: number): Handle | undefined {
    const segment = this.segment;
    return segment && n >= 0 && n < segment.rows.count ? segment.base + n : undefined;
  }

  /**
   * Adds a bulk segment. `sorted[order]` lists the segment's row numbers in that order's ascending order
   * (the generator knows it without comparing rows); existing object rows are merged in by binary search.
   */
  loadBulk(rows: BulkSegment<T>, sorted: Record<O, ArrayLike<number>>): void {
    if (this.segment) throw new Error('a bulk history is already loaded');
    const base = this.nextHandle;
    this.nextHandle += rows.count;
    this.segment = { base, rows };
    const scratch: GroupFields = { merchantId: rows.merchantId, status: '' };
    for (const name of Object.keys(this.orders) as O[]) {
      const order = this.orders[name];
      const numbers = sorted[name];
      if (numbers.length !== rows.count)
        throw new Error(`bulk order ${name} lists ${numbers.length} of ${rows.count} rows`);
      const bulkGroups = new Map<string, Handle[]>();
      for (let k = 0; k < numbers.length; k += 1) {
        const n = numbers[k] as number;
        scratch.status = rows.status(n);
        for (const name of order.groups(scratch)) {
          let list = bulkGroups.get(name);
          if (!list) {
            list = [];
            bulkGroups.set(name, list);
          }
          list.push(base + n);
        }
      }
      const groups = this.indexes.get(name)!;
      for (const [groupName, bulk] of bulkGroups) {
        const existing = groups.get(groupName) ?? [];
        groups.set(groupName, existing.length === 0 ? bulk : this.merge(order, existing, bulk));
      }
    }
  }

  // ---- internals -----------------------------------------------------------------------------------------

  private isBulk(handle: Handle): boolean {
    const segment = this.segment;
    return segment !== undefined && handle >= segment.base && handle < segment.base + segment.rows.count;
  }

  private handleOf(id: string): Handle | undefined {
    const known = this.handles.get(id);
    if (known !== undefined) return known;
    const segment = this.segment;
    if (!segment) return undefined;
    const n = segment.rows.indexOfId(id);
    return n === undefined ? undefined : segment.base + n;
  }

  private live(handle: Handle): T {
    const row = this.objects.get(handle);
    if (row) return row;
    const made = this.peek(handle);
    this.objects.set(handle, made);
    this.handles.set(made.id, handle);
    return made;
  }

  private index(handle: Handle): void {
    const row = this.peek(handle);
    for (const name of Object.keys(this.orders) as O[]) {
      const order = this.orders[name];
      const groups = this.indexes.get(name)!;
      for (const groupName of order.groups(row)) {
        let list = groups.get(groupName);
        if (!list) {
          list = [];
          groups.set(groupName, list);
        }
        list.splice(this.upperBound(order, list, row), 0, handle);
      }
    }
  }

  private unindex(handle: Handle): void {
    const row = this.peek(handle);
    for (const name of Object.keys(this.orders) as O[]) {
      const order = this.orders[name];
      const groups = this.indexes.get(name)!;
      for (const groupName of order.groups(row)) {
        const list = groups.get(groupName);
        if (!list) continue;
        const at = this.lowerBound(order, list, row);
        if (list[at] === handle) list.splice(at, 1);
        else {
          // Not where its fields say (changed behind the table's back): find it the slow way.
          const found = list.indexOf(handle);
          if (found !== -1) list.splice(found, 1);
        }
      }
    }
  }

  /** First position whose row is not below `row`. */
  private lowerBound(order: TableOrder<T>, list: readonly Handle[], row: T): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order.compare(this.peek(list[mid] as Handle), row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First position whose row is above `row`. */
  private upperBound(order: TableOrder<T>, list: readonly Handle[], row: T): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order.compare(this.peek(list[mid] as Handle), row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Merges a few sorted object handles into a long sorted bulk list. */
  private merge(order: TableOrder<T>, few: readonly Handle[], many: Handle[]): Handle[] {
    const positions = few.map((handle) => this.upperBound(order, many, this.peek(handle)));
    const out: Handle[] = new Array<Handle>(few.length + many.length);
    let m = 0;
    let o = 0;
    for (let f = 0; f < few.length; f += 1) {
      const until = positions[f] as number;
      while (m < until) out[o++] = many[m++] as Handle;
      out[o++] = few[f] as Handle;
    }
    while (m < many.length) out[o++] = many[m++] as Handle;
    return out;
  }
}
