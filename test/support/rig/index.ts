// The test rig: a Slack Web API stand-in, a driver that sends signed Slack requests, and Block Kit readers.

export type {
  BlockKitProblem,
  CheckMessageOptions,
  MessageRefusal,
  ValidateBlocksOptions,
} from './block-kit-validation.js';
export {
  ATTACHMENT_LIMITS,
  blocksTextLength,
  checkMessage,
  describeProblem,
  MESSAGE_LIMITS,
  refusalBody,
  validateAttachments,
  validateBlocks,
} from './block-kit-validation.js';
export type { FoundButton, FoundMessageButton, FoundStaticSelect } from './blocks-text.js';
export {
  blocksToText,
  findButtons,
  findMessageButtons,
  findMessageStaticSelects,
  messageToText,
} from './blocks-text.js';
export type { RunningApp } from './bolt-server.js';
export { startAppOnFreePort } from './bolt-server.js';
export type {
  ClickableMessage,
  ClickButtonOptions,
  CloseViewOptions,
  CommandOptions,
  DriverResult,
  DriverStandIn,
  RawResult,
  SelectOptionOptions,
  SenderOptions,
  SlackDriver,
  SlackDriverOptions,
  SubmitViewOptions,
  ViewSenderOptions,
} from './slack-driver.js';
export { createSlackDriver, sign } from './slack-driver.js';
export type {
  ConversationKind,
  ConversationSpec,
  InjectedFailure,
  MessageVersion,
  RecordedCall,
  RecordedResponse,
  Rejection,
  ResponseEffect,
  ResponseUrlOrigin,
  SlackStandIn,
  SlackStandInOptions,
  StandInEvent,
  StoredMessage,
} from './slack-stand-in.js';
export { startSlackStandIn } from './slack-stand-in.js';
