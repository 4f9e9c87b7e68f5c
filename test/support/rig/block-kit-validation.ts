// Slack's Block Kit rules live in src/workspace (the stand-in of the local workspace applies them too).
export * from '../../../src/workspace/block-kit-validation.js';
