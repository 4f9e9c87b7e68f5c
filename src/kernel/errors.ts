/**
 * A problem told to the person in plain words, with no technical detail (that goes to the log). Features,
 * parsers and listeners throw it (or a subclass); the failure view shows `mrkdwn` as is. `code` is stable, for
 * tests and logs.
 */
export class UserFacingError extends Error {
  constructor(
    /** mrkdwn, already escaped. */
    readonly mrkdwn: string,
    readonly code: string = 'user_facing',
    /** The plain message for logs and `toThrow`; the mrkdwn itself when not given. */
    message: string = mrkdwn,
  ) {
    super(message);
    this.name = 'UserFacingError';
  }
}

/** Stable machine-readable category of an `AmountError`. */
export type AmountErrorCode = 'negative' | 'zero' | 'too_many_decimals' | 'exponent' | 'too_large' | 'invalid';

/**
 * A rejected amount; `reason` is a complete human sentence safe to post in Slack (what the person typed is
 * already quoted and escaped in it). Thrown by the amount parsers and by `toBaseUnits`.
 */
export class AmountError extends UserFacingError {
  /** Stable category, for code paths and tests. */
  declare readonly code: AmountErrorCode;
  /** Human sentence for the Slack user, e.g. "Amount must be greater than zero.". */
  readonly reason: string;

  constructor(code: AmountErrorCode, reason: string) {
    // The reason is mrkdwn already (what the person typed is escaped where it is quoted): never escape it twice.
    super(reason, code, reason);
    this.name = 'AmountError';
    this.reason = reason;
  }
}

/** The code of an error meaning the bot's own storage (its database) could not be reached: nothing was saved. */
export const STORAGE_UNAVAILABLE = 'storage_unavailable';

/** True for an error whose `code` says the bot's storage could not be reached. */
export function isStorageUnavailable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STORAGE_UNAVAILABLE;
}
