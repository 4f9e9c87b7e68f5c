// The Socket Mode stand-in lives in dev/workspace (the local workspace runs the bot in Socket Mode with it too).
export * from '../../../dev/workspace/socket-mode-stand-in.js';
