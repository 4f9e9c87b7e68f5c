// The test rig: a Slack Web API stand-in, a driver that sends signed Slack requests, and Block Kit readers.

export {
  blocksToText,
  findButtons,
  findMessageButtons,
  messageToText,
} from './blocks-text.js';
export type { RunningApp } from './bolt-server.js';
export { startAppOnFreePort } from './bolt-server.js';
export type { SlackDriver } from './slack-driver.js';
export { createSlackDriver } from './slack-driver.js';
export type {
  ConversationSpec,
  SlackStandIn,
  StandInEvent,
} from './slack-stand-in.js';
export { startSlackStandIn } from './slack-stand-in.js';
