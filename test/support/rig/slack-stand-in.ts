// The Slack stand-in lives in dev/workspace (the local workspace of `npm start` serves it too).
export * from '../../../dev/workspace/slack-stand-in.js';
