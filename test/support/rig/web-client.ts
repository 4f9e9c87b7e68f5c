import { webApi } from '@slack/bolt';

/**
 * A logger for Bolt's WebClient that prints nothing: the client logs Slack's `[ERROR]` lines itself, and the tests
 * that drive the stand-in into refusals expect them (the assertions show what was refused).
 */
export const silentWebApiLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => webApi.LogLevel.ERROR,
  setName() {},
};

/** Slack's error code for a failed WebClient call (`data.error`), or 'ok' when it succeeded. */
export async function slackError(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    return (error as { data?: { error?: string } }).data?.error ?? String(error);
  }
}
