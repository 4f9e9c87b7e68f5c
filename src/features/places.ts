/**
 * Where the bot may post, in words that fit the place: a swap quote needs approvers who can see it, and a message
 * Slack refused for its place (the bot is not in the channel, the channel is archived or read-only) is explained
 * with what the person can do about it. Pure: the kind of conversation and Slack's error code come in, a sentence
 * (mrkdwn) goes out.
 */
import { type ConversationKind, isDirectMessage } from '../slack/conversations.js';

/** How a person invites the bot (its display name in the manifests is `treasury`). */
const INVITE = 'invite me with `/invite @treasury`';

/** What was being posted, for the words around the reason. */
export type PostingWhat = 'quote' | 'share';

const AGAIN: Record<PostingWhat, string> = { quote: 'ask for the swap again', share: 'click *Share in channel* again' };
const ELSEWHERE: Record<PostingWhat, string> = {
  quote: 'Ask for the swap in a channel where the approvers and I both are.',
  share: 'Share it from a channel I am in, or from your direct message with me.',
};
const NOTHING_DONE: Record<PostingWhat, string> = { quote: 'No swap was made.', share: 'Nothing was posted.' };

/**
 * Why a swap quote cannot be asked for here, or undefined when it can. A quote is posted for the approvers to see
 * and approve with a click; in a 1:1 direct message only its two people can see it, so the person is told where to
 * ask instead, before anything is estimated. A group DM may hold the bot and an approver: the quote is tried there,
 * and when the bot is not in it Slack's refusal is explained (cannotPostHere).
 */
export function quotePlaceProblem(kind: ConversationKind): string | undefined {
  if (kind !== 'im') return undefined;
  return (
    `Swap quotes are posted for the approvers to see and approve, and this is a direct message, so I cannot post one here. ` +
    `Ask for the swap in a channel that you, the approvers and I share (if I am not in it yet, ${INVITE} there first). Nothing was estimated or made.`
  );
}

/**
 * Why Slack refused to post in this place, in plain words with what to do, or undefined when `slackError` is not
 * about the place (a passing failure, refused content…). Slack answers `channel_not_found` for a private channel or
 * DM the bot is not in (it cannot see them), `not_in_channel` for a public channel it is not in when the app may not
 * post where it was not invited, and `is_archived` / `restricted_action…` for channels that take no posts.
 */
export function cannotPostHere(
  kind: ConversationKind,
  slackError: string | undefined,
  what: PostingWhat,
): string | undefined {
  switch (slackError) {
    case 'channel_not_found':
      if (isDirectMessage(kind))
        return `I am not part of this direct message, so I cannot post in it. ${NOTHING_DONE[what]} ${ELSEWHERE[what]}`;
      return (
        `I cannot post here: this is a private channel I am not in (or one that no longer exists). ${NOTHING_DONE[what]} ` +
        `To use it, ${INVITE}, then ${AGAIN[what]}.`
      );
    case 'not_in_channel':
      return `I am not a member of this channel, so I may not post in it. ${NOTHING_DONE[what]} To use it, ${INVITE}, then ${AGAIN[what]}.`;
    case 'is_archived':
      return `This channel is archived, so nothing can be posted in it. ${NOTHING_DONE[what]} ${ELSEWHERE[what]}`;
    case 'restricted_action':
    case 'restricted_action_read_only_channel':
    case 'restricted_action_thread_only_channel':
    case 'restricted_action_non_threadable_channel':
    case 'ekm_access_denied':
      return (
        `This channel does not let me post here (a workspace or channel setting, such as a read-only channel). ` +
        `${NOTHING_DONE[what]} ${ELSEWHERE[what]}`
      );
    default:
      return undefined;
  }
}
