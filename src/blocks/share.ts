import { actions, type Block, button, context } from './common.js';
import { ACTION_IDS, type ShareableKind, type ShareButtonValue } from './ids.js';
import { code } from './mrkdwn.js';

/** How a single-record view is shown: privately with a share button, or as the shared channel copy. */
export interface RecordViewOptions {
  /** Mention of the person who shared it to the channel. */
  sharedBy?: string;
  /** Offer "Share in channel" (false on the shared copy). */
  shareable: boolean;
}

/** The id line under a record, and the "Share in channel" button when it is offered. */
export function recordFooter(kind: ShareableKind, label: string, id: string, options: RecordViewOptions): Block[] {
  const value: ShareButtonValue = { kind, id };
  return [
    context(
      [`${label} id ${code(id)}`, options.sharedBy ? `shared by ${options.sharedBy}` : undefined]
        .filter(Boolean)
        .join(' · '),
    ),
    ...actions(options.shareable ? [button('Share in channel', ACTION_IDS.shareInChannel, JSON.stringify(value))] : []),
  ];
}
