import { CodedError, type ErrorCode } from './errors.js';

/**
 * The store could not do what was asked (closed, locked by another process, a record missing or damaged…).
 * `storage_unavailable`: the database could not be reached (nothing was written); try again later.
 */
export class StoreError extends CodedError {
  constructor(
    message: string,
    code: Extract<
      ErrorCode,
      'store' | 'storage_unavailable' | 'store_corrupt_state' | 'store_damaged_record'
    > = 'store',
  ) {
    super(code, message);
    this.name = 'StoreError';
  }
}

/**
 * A stored record the operation needs cannot be decoded (a damaged row). Where it counts toward a limit or a total
 * (the daily limit, a requester's 24 hours), the operation is refused rather than judged without it: `record`
 * names it for the person's reply and the log (e.g. `swap quote "…"`), never its content.
 */
export class DamagedRecordError extends StoreError {
  constructor(
    readonly record: string,
    readonly problem: string,
  ) {
    super(`${record} in the database is damaged: ${problem}`, 'store_damaged_record');
    this.name = 'DamagedRecordError';
  }
}
