/** The state file could not be used at all (locked by another process, unreadable directory…). */
export class StoreError extends Error {
  /** `storage_unavailable`: the database could not be reached (nothing was written); try again later. */
  readonly code: string;
  constructor(message: string, code = 'store') {
    super(message);
    this.name = 'StoreError';
    this.code = code;
  }
}
