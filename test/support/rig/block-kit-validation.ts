// Slack's Block Kit rules live in dev/workspace (the stand-in of the local workspace applies them too).
export * from '../../../dev/workspace/block-kit-validation.js';
