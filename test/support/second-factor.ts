// The second factor as people go through it in Slack, for every end-to-end test that needs an enrolled approver:
// the enrolment DM as the person received it (the message with the otpauth:// URI, and the QR code's file), and
// enrolling someone from start to end: `/treasury 2fa enroll`, a code from the DM's secret, `/treasury 2fa confirm`,
// then another admin's Confirm enrolment on the announcement in ALERT_CHANNEL (a new enrolment counts only then).
import { decodeSlackEntities } from '../../src/kernel/text.js';
import { blocksToText, findButtons } from './rig/blocks-text.js';
import type { SlackDriver } from './rig/slack-driver.js';
import type { SlackStandIn, StoredMessage } from './rig/slack-stand-in.js';

/** The action_id of Confirm enrolment on the announcement of a new enrolment. */
const CONFIRM_ENROLMENT = 'second_factor_confirm_enrolment';

/** What enrolling needs: the stand-in, a driver of the bot, and a code from the secret on the bot's clock. */
export interface EnrolmentRig {
  slack: SlackStandIn;
  driver: SlackDriver;
  /** ALERT_CHANNEL, where a new enrolment is announced. */
  alertChannel: string;
  /** The code an authenticator app shows for `secret` now on the bot's clock (a fresh step, when the test needs one). */
  code(secret: string): string;
  /** Where the commands are typed (the driver's default channel when undefined). */
  channelId?: string;
}

/** The enrolment DM `userId` received since message `after`: its text message, its QR code's file and the secret. */
export async function enrolmentDm(rig: Pick<EnrolmentRig, 'slack'> & { botToken: string }, userId: string, after = 0) {
  const { slack } = rig;
  const shared = await slack.waitFor(
    () =>
      slack
        .messages()
        .slice(after)
        .find((m) => m.channel.startsWith('D') && (m.text ?? '').includes('otpauth://')),
    10_000,
    `the enrolment DM of ${userId}`,
  );
  const qr = await slack.waitFor(
    () =>
      slack
        .messages(shared.channel)
        .find((m) => m.ts > shared.ts && m.files?.some((f) => f.name === 'treasury-bot-second-factor.png')),
    10_000,
    `the QR code sent to ${userId}`,
  );
  const file = qr.files![0]!;
  const response = await fetch(file.url_private_download, { headers: { authorization: `Bearer ${rig.botToken}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  const uri = decodeSlackEntities(/otpauth:\/\/totp\/[^\s`>]+/.exec(shared.text ?? '')?.[0] ?? '');
  const secret = new URL(uri).searchParams.get('secret') ?? '';
  return { shared, qr, file, bytes, uri, secret };
}

async function command(rig: EnrolmentRig, text: string, userId: string): Promise<string> {
  const result = await rig.driver.command(text, { userId, ...(rig.channelId ? { channelId: rig.channelId } : {}) });
  if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status} to /treasury ${text}`);
  const [reply] = await result.waitForResponses(1, 10_000);
  return reply?.blocks?.length ? blocksToText(reply.blocks) : (reply?.text ?? '');
}

/** The announcement of `userId`'s new enrolment in ALERT_CHANNEL (the newest one with Confirm enrolment). */
function enrolmentAnnouncement(rig: Pick<EnrolmentRig, 'slack' | 'alertChannel'>, userId: string) {
  return rig.slack.waitFor(
    () =>
      rig.slack
        .messages(rig.alertChannel)
        .filter((m) =>
          findButtons(m.blocks ?? []).some(
            (b) => b.actionId === CONFIRM_ENROLMENT && b.value?.startsWith(`${userId}|`),
          ),
        )
        .at(-1),
    10_000,
    `the announcement of ${userId}'s enrolment`,
  );
}

/** `adminId` presses Confirm enrolment on `announcement`; answers what the clicker was told. */
async function pressConfirmEnrolment(
  rig: Pick<EnrolmentRig, 'driver' | 'alertChannel'>,
  announcement: StoredMessage,
  adminId: string,
): Promise<string> {
  const result = await rig.driver.clickButtonIn(
    { channel: rig.alertChannel, ts: announcement.ts, blocks: announcement.blocks ?? [] },
    CONFIRM_ENROLMENT,
    { userId: adminId, channelId: rig.alertChannel },
  );
  if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status} to Confirm enrolment`);
  const [reply] = await result.waitForResponses(1, 10_000);
  return reply?.text ?? blocksToText(reply?.blocks ?? []);
}

/**
 * `userId` enrols and confirms with a code (`/treasury 2fa enroll`, the DM's secret, `/treasury 2fa confirm`), then
 * `adminId` (another treasury admin) confirms the new enrolment in ALERT_CHANNEL. Answers the secret.
 */
export async function enrolAndConfirm(
  rig: EnrolmentRig & { botToken: string },
  userId: string,
  adminId: string,
): Promise<string> {
  const secret = await enrolOnly(rig, userId);
  const told = await pressConfirmEnrolment(rig, await enrolmentAnnouncement(rig, userId), adminId);
  if (!told.includes('You confirmed')) throw new Error(`${adminId} did not confirm ${userId}'s enrolment: ${told}`);
  return secret;
}

/** `userId` enrols and confirms with a code, and no admin has confirmed it yet. Answers the secret. */
async function enrolOnly(rig: EnrolmentRig & { botToken: string }, userId: string): Promise<string> {
  const before = rig.slack.messages().length;
  const started = await command(rig, '2fa enroll', userId);
  if (!started.includes('direct message')) throw new Error(`${userId} could not start an enrolment: ${started}`);
  const { secret } = await enrolmentDm(rig, userId, before);
  const confirmed = await command(rig, `2fa confirm ${rig.code(secret)}`, userId);
  if (!confirmed.includes('You are enrolled')) throw new Error(`${userId} did not enrol: ${confirmed}`);
  return secret;
}
