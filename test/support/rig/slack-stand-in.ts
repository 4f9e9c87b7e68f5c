// The Slack stand-in lives in src/workspace (the local workspace of `npm start` serves it too).
export * from '../../../src/workspace/slack-stand-in.js';
