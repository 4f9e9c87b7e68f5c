/** The Slack gateway: every message the bot sends goes through here, under one retry policy. */

export {
  answeredWithFailure,
  describeSlackError,
  describeUploadFailure,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  refusedContent,
  SlackBackoffError,
  slackErrorCode,
  triggerRefused,
} from './errors.js';
export {
  createSlackGateway,
  createSlackWebClient,
  decideAfterFailure,
  SLACK_RETRY_POLICY,
  type SlackGateway,
  type SlackRetryPolicy,
} from './gateway.js';
