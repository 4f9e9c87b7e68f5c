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
