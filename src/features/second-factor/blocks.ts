/**
 * The second factor's messages: `/treasury 2fa`'s state (never the secret), the enrolment DM (the one place the
 * otpauth:// URI is shown), the replies of enroll and confirm, and the reset picker an admin opens.
 */
import { context, header, type SlackMessage, section } from '../../blocks/common.js';
import { ACTION_IDS, VIEW_IDS } from '../../blocks/ids.js';
import { clipText, escapeText } from '../../kernel/text.js';
import { LOCK_MS, MAX_WRONG_CODES, type Standing } from './rules.js';
import { CODE_WORDS, LAPSE_MINUTES, utcDay, utcTime } from './words.js';

/** The issuer name authenticator apps show beside the codes. */
export const TOTP_ISSUER = 'Treasury bot';

function stepUpLine(stepUpLabel: string | undefined): string {
  return stepUpLabel === undefined
    ? 'Approvals do not ask for a code on this bot (`SWAP_STEP_UP_USD` is not set), except of quotes made while it was set.'
    : `Approving a swap worth *${stepUpLabel} or more* (or of unknown value) needs a code from your authenticator app; the swap counts with its requester's other swaps of the last 24 hours.`;
}

/** `/treasury 2fa`: where the person stands (`standing` undefined: no key on this bot). */
export function buildStanding(
  standing: Standing | undefined,
  options: {
    now: Date;
    stepUpLabel: string | undefined;
    /** ALERT_CHANNEL as people read it (alertChannelRef, mrkdwn): where another admin confirms an enrolment. */
    alertChannel: string;
    /** The enrolment was just confirmed with a code: what became of the DM (its words). */
    justEnrolled?: { dm: string };
  },
): SlackMessage {
  let line: string;
  if (standing === undefined)
    line = 'Second factors are not set up on this bot: an engineer sets `TOTP_ENCRYPTION_KEY`.';
  else if (standing.state === 'not_enrolled')
    line =
      'You are *not enrolled*. Type `/treasury 2fa enroll` to get a QR code for your authenticator app by direct message.';
  else if (standing.state === 'pending')
    line = `You are *waiting for your first code* (enrolment started ${utcTime(standing.startedAt, options.now)}; it lapses after ${LAPSE_MINUTES} minutes without one). Type \`/treasury 2fa confirm 123456\` with the code your app shows; \`/treasury 2fa enroll\` sends a new QR code.`;
  else if (standing.state === 'awaiting_admin')
    line = `${options.justEnrolled ? '*You are enrolled.* ' : `You are *enrolled*${standing.enrolledAt ? ` since ${utcDay(standing.enrolledAt)}` : ''}, *waiting for another admin*. `}${options.justEnrolled ? `${options.justEnrolled.dm} ` : ''}${CODE_WORDS.awaitingAdmin(options.alertChannel)} A new enrolment is announced there because whoever holds a person's Slack session could make one.`;
  else if (standing.state === 'enrolled')
    line = options.justEnrolled
      ? `*You are enrolled.* ${options.justEnrolled.dm}`
      : `You are *enrolled*${standing.enrolledAt ? ` since ${utcDay(standing.enrolledAt)}` : ''}. A lost phone or app: ask another treasury admin for \`/treasury 2fa reset @you\`, then enrol again.`;
  else if (standing.state === 'locked')
    line = `Your approvals are *locked until ${utcTime(standing.until, options.now)}* after ${MAX_WRONG_CODES} wrong codes.${standing.enrolled ? '' : ' Your enrolment is not finished either.'}`;
  else
    line =
      'Your second factor *cannot be read* (its record is damaged, or the bot was given another key): ask a treasury admin to reset it (`/treasury 2fa reset @you`), then enrol again.';
  const text = `Second factor: ${line.replace(/[*`]/g, '')}`;
  return {
    text,
    blocks: [header('Your second factor'), section(line), context(stepUpLine(options.stepUpLabel))],
  };
}

/**
 * The text of the enrolment DM, posted before the QR code: the URI for people who cannot scan, what to type, where
 * the secret goes, and who must confirm the enrolment (`alertChannel`: alertChannelRef, mrkdwn).
 */
export function buildEnrolmentDm(uri: string, alertChannel: string): string {
  return [
    '*Your second factor for the treasury bot.* Scan the QR code below with your authenticator app (Google Authenticator, 1Password, Authy…).',
    // Escaped as mrkdwn (its `&` becomes `&amp;`): Slack shows, and copies, the URI as it is.
    `Cannot scan? Add this link to the app instead (keep it to yourself):\n\`${escapeText(uri)}\``,
    `Then type \`/treasury 2fa confirm 123456\` with the 6-digit code the app shows, within ${LAPSE_MINUTES} minutes. This message and the QR code are then deleted (after ${LAPSE_MINUTES} minutes without a code too, and the enrolment lapses): your authenticator app keeps the key, and the bot never shows it again.`,
    `Your new second factor is announced in ${alertChannel} and counts for approvals only after another treasury admin confirms it there (whoever holds your Slack session could have asked for this message).`,
    `Five wrong codes in a row lock your approvals for ${Math.round(LOCK_MS / 60_000)} minutes.`,
  ].join('\n\n');
}

/** The Confirm enrolment button's value: whose enrolment, and which (when it was enrolled). */
function confirmButtonValue(userId: string, enrolledAt: string): string {
  return `${userId}|${enrolledAt}`;
}

/** The button's value read back; undefined when it is not one of ours. */
export function parseConfirmButtonValue(value: string | undefined): { userId: string; enrolledAt: string } | undefined {
  const match = /^([UW][A-Z0-9]{2,})\|(\d{4}-\d\d-\d\dT[\d:.]+Z)$/.exec(value ?? '');
  return match ? { userId: match[1]!, enrolledAt: match[2]! } : undefined;
}

/** The announcement of a new enrolment in ALERT_CHANNEL, with Confirm enrolment for another admin. */
export function buildEnrolmentAnnouncement(userId: string, enrolledAt: string, now: Date): SlackMessage {
  const line = `:key: <@${userId}> enrolled a new second factor for the treasury bot at ${utcTime(enrolledAt, now)}. Whoever holds a person's Slack session could do this, so it counts for their approvals only after another treasury admin confirms it: check with <@${userId}> (in person or on a call) that it was them, then press Confirm enrolment.`;
  return {
    text: `<@${userId}> enrolled a new second factor: another treasury admin confirms it here`,
    blocks: [
      section(line),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: ACTION_IDS.secondFactorConfirm,
            text: plain('Confirm enrolment'),
            style: 'primary',
            value: confirmButtonValue(userId, enrolledAt),
          },
        ],
      },
    ] as SlackMessage['blocks'],
  };
}

/** The announcement once another admin confirmed it: the button goes. */
export function buildEnrolmentConfirmed(userId: string, enrolledAt: string, adminId: string, now: Date): SlackMessage {
  const line = `:white_check_mark: <@${userId}>'s new second factor (enrolled ${utcTime(enrolledAt, now)}) was confirmed by <@${adminId}> at ${utcTime(now.toISOString(), now)}: it counts for approvals now.`;
  return { text: line.replace(/^:white_check_mark: /, ''), blocks: [section(line)] };
}

/** The private reply to `/treasury 2fa enroll` once the DM is sent. */
export function enrolmentStartedReply(): SlackMessage {
  const text = `I sent you a direct message with a QR code for your authenticator app. Scan it, then type \`/treasury 2fa confirm 123456\` with the code the app shows, within ${LAPSE_MINUTES} minutes.`;
  return { text, blocks: [section(text)] };
}

/** The picker's input: one person, chosen with Slack's own user menu. */
export const RESET_PERSON = { blockId: 'reset_person', actionId: 'person' } as const;

const plain = (text: string) => ({ type: 'plain_text' as const, text });

/**
 * `/treasury 2fa reset` without a member id: a modal with Slack's user menu (`users_select`). `typed` is what came
 * after `reset` (e.g. `@avery`: Slack sends a typed mention of this command as text, without the person's id), shown
 * as written so the admin knows whom they meant; the menu starts empty.
 */
export function buildResetPicker(typed?: string) {
  const echo = typed?.trim() ? clipText(typed.trim(), 80) : undefined;
  return {
    type: 'modal' as const,
    callback_id: VIEW_IDS.secondFactorReset,
    title: plain('Reset a second factor'),
    submit: plain('Reset'),
    close: plain('Cancel'),
    blocks: [
      section(
        'Pick the person whose authenticator app the bot should forget (not yourself: another admin resets yours). They will have to enrol again with `/treasury 2fa enroll` before they can approve large swaps; a lock after wrong codes, if any, ends now. They are told by direct message, and the reset is recorded in the audit trail.',
      ),
      ...(echo === undefined
        ? []
        : [{ type: 'context', elements: [plain(`You typed “${echo}”: pick that person in the menu below.`)] }]),
      {
        type: 'input',
        block_id: RESET_PERSON.blockId,
        label: plain('Whose second factor'),
        element: { type: 'users_select', action_id: RESET_PERSON.actionId, placeholder: plain('Choose a person') },
      },
    ],
  };
}

/** What replaces the picker when its submission is refused as a whole (`text` is mrkdwn): it only closes. */
export function buildResetRefused(text: string) {
  return {
    type: 'modal' as const,
    callback_id: VIEW_IDS.secondFactorResetRefused,
    title: plain('Nothing was reset'),
    close: plain('Close'),
    blocks: [section(text)],
  };
}

/** What an admin is told once a person's second factor is reset (mrkdwn). */
export function resetDoneText(targetId: string, was: 'pending' | 'enrolled' | 'damaged'): string {
  const before = was === 'pending' ? 'waiting for its first code' : was;
  return `<@${targetId}>'s second factor is reset (it was ${before}); any lock is lifted. They were told by direct message and can enrol again with \`/treasury 2fa enroll\`.`;
}
