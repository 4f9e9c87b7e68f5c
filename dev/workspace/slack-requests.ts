/**
 * Requests exactly as Slack sends them to an app: form-encoded, signed with the app's signing secret
 * (`v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`), a slash command's fields, `block_actions` (a button clicked, an
 * option chosen in a static menu, in a message or in a Home tab, an element used inside a modal), global shortcuts, and a modal submitted (`view_submission`) or
 * closed (`view_closed`); Events API callbacks (`app_home_opened`) as signed JSON. Socket Mode carries the same
 * payloads in its envelopes (socket-mode-stand-in.ts).
 */
// The requests live in requests/ by kind: wire (signing, bodies, posting), commands, actions, views and home.

export * from './requests/actions.js';
export * from './requests/commands.js';
export * from './requests/home.js';
export * from './requests/view-actions.js';
export * from './requests/views.js';
export * from './requests/wire.js';
