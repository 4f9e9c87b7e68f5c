/**
 * A problem told to the person in plain words, with no technical detail (that goes to the log). Features,
 * parsers and listeners throw it; the failure view shows `mrkdwn` as is. `code` is stable, for tests and logs.
 */
export class UserFacingError extends Error {
  constructor(
    /** mrkdwn, already escaped. */
    readonly mrkdwn: string,
    readonly code: string = 'user_facing',
  ) {
    super(mrkdwn);
    this.name = 'UserFacingError';
  }
}
