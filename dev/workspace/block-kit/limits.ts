// Slack's Block Kit limits, as its references give them (what the checks of block-kit/ hold requests to).

/** One thing Slack would refuse, located by a JSON pointer into the request (e.g. `/blocks/0/text/text`). */
export interface BlockKitProblem {
  pointer: string;
  message: string;
}

/** Limits of messages (Slack's Block Kit reference and the chat.postMessage reference). */
export const MESSAGE_LIMITS = {
  blocks: 50,
  /** Home tabs and modals take 100. */
  surfaceBlocks: 100,
  blockId: 255,
  actionId: 255,
  textObject: 3000,
  sectionText: 3000,
  sectionFields: 10,
  sectionField: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  accessibilityLabel: 75,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  imageUrl: 3000,
  altText: 2000,
  imageTitle: 2000,
  /** chat.postMessage: longer `text` is refused with `msg_too_long`. */
  messageText: 40_000,
  /**
   * Total text of all blocks past which chat.postMessage answers `msg_blocks_too_long`. Slack does not document
   * it; by this same count (every `text` string in the blocks) bolt-js issue #2867 saw 9,597 accepted and 11,341
   * refused, and Slack staff speak of 12,000 including a buffer for block containers (bolt-js #2509).
   */
  blocksText: 11_000,
} as const;

/** Limits of modals and their inputs ("Modal view object", "Input block", "Plain-text input element", "Select menu element", "Option object"). */
export const MODAL_LIMITS = {
  title: 24,
  submit: 24,
  close: 24,
  blocks: 100,
  privateMetadata: 3000,
  callbackId: 255,
  inputLabel: 2000,
  inputHint: 2000,
  plainTextInputLength: 3000,
  placeholder: 150,
  selectOptions: 100,
  /** "Option group object": at most 100 groups (and 100 options over all of them), each label ≤ 75. */
  optionGroups: 100,
  optionGroupLabel: 75,
  optionText: 75,
  optionValue: 150,
} as const;

/**
 * Limits of legacy secondary attachments ("Legacy secondary message attachments" reference; the chat.postMessage
 * reference for `too_many_attachments`: "A maximum of 100 attachments are allowed on a message").
 */
export const ATTACHMENT_LIMITS = {
  attachments: 100,
  /** Blocks in one attachment, as in a message (past it Slack answers invalid_attachments, appKODE/build-publish-plugin #54). */
  blocks: 50,
} as const;

/** Limits of a Home tab view ("App Home" and "View object" references; `views.publish`'s errors). */
export const HOME_LIMITS = {
  blocks: 100,
  privateMetadata: 3000,
  callbackId: 255,
  externalId: 255,
  /** views.publish answers `view_too_large` past 250 kB of view JSON. */
  viewBytes: 250 * 1024,
} as const;
