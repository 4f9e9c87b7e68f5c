// The Socket Mode stand-in lives in src/workspace (the local workspace runs the bot in Socket Mode with it too).
export * from '../../../src/workspace/socket-mode-stand-in.js';
