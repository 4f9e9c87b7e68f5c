import { CodedError, type ErrorCode } from './errors.js';

/**
 * The store could not do what was asked (closed, locked by another process, a record missing or damaged…).
 * `storage_unavailable`: the database could not be reached (nothing was written); try again later.
 */
export class StoreError extends CodedError {
  constructor(
    message: string,
    code: Extract<ErrorCode, 'store' | 'storage_unavailable' | 'store_corrupt_state'> = 'store',
  ) {
    super(code, message);
    this.name = 'StoreError';
  }
}
