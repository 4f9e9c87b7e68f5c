/** The Slack gateway: every message the bot sends goes through here, under one retry policy. */
export {
  createSlackGateway,
  createSlackWebClient,
  slackClientOptions,
  decideAfterFailure,
  slackRetryDelayMs,
  SLACK_RETRY_POLICY,
  type SlackGateway,
  type SlackGatewayOptions,
  type SlackRetryPolicy,
  type SlackMessageContent,
  type SlackChatClient,
  type CallOptions,
  type PostOptions,
  type PostedQuery,
  type MessageMetadata,
  type Reply,
  type ReplyFallback,
  type FailureDecision,
} from './gateway.js';
export {
  describeSlackError,
  describeSlackStartupFailure,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  refusedContent,
  responseUrlRefusedContent,
  retryAfterSeconds,
  slackErrorCode,
  ResponseUrlError,
  SlackBackoffError,
} from './errors.js';
export { plainTextOf, PLAIN_TEXT_MAX_CHARS, BUTTONS_MISSING_NOTE, type MessageForFallback } from './plain-text.js';
export { conversationKindOf, isDirectMessage, type ConversationKind, type ConversationPlace } from './conversations.js';
