/** The state file could not be used at all (locked by another process, unreadable directory…). */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreError';
  }
}
