/** The Slack gateway: every message the bot sends goes through here, under one retry policy. */

export { type ConversationKind, type ConversationPlace, conversationKindOf, isDirectMessage } from './conversations.js';
export {
  answeredWithFailure,
  describePostRefusal,
  describeSlackError,
  describeSlackStartupFailure,
  describeUploadFailure,
  FileUploadError,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  ResponseUrlError,
  refusedContent,
  responseUrlRefusedContent,
  retryAfterSeconds,
  SlackBackoffError,
  slackErrorCode,
  triggerRefused,
} from './errors.js';
export {
  type CallOptions,
  createSlackGateway,
  createSlackWebClient,
  decideAfterFailure,
  type FailureDecision,
  type FileUpload,
  type MessageMetadata,
  type PostedQuery,
  type PostOptions,
  type Reply,
  type ReplyFallback,
  SLACK_RETRY_POLICY,
  type SlackChatClient,
  type SlackGateway,
  type SlackGatewayOptions,
  type SlackMessageContent,
  type SlackRetryPolicy,
  slackClientOptions,
  slackRetryDelayMs,
} from './gateway.js';
export { BUTTONS_MISSING_NOTE, type MessageForFallback, PLAIN_TEXT_MAX_CHARS, plainTextOf } from './plain-text.js';
