// Helpers for the second factor's end-to-end tests: the code an authenticator app would show, the enrolment DM as
// the person received it, and enrolling someone from start to end.
import { generateSync } from 'otplib';
import { decodeSlackEntities } from '../../src/kernel/text.js';
import type { LocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';

/** The code an authenticator app shows for `secret` at the bot's clock (the simulator's), `offsetS` seconds on. */
export function codeFor(stack: LocalStack, secret: string, offsetS = 0): string {
  return generateSync({ secret, epoch: Math.floor(stack.simulator.now() / 1000) + offsetS });
}

/** The enrolment DM `userId` received last: its file (bytes downloaded with the bot token) and its text. */
export async function enrolmentDm(stack: LocalStack, userId: string, after = 0) {
  const shared = await stack.slack.waitFor(
    () =>
      stack.slack
        .messages()
        .slice(after)
        .find((m) => m.channel.startsWith('D') && m.files !== undefined && (m.text ?? '').includes('otpauth://')),
    10_000,
    `the enrolment DM of ${userId}`,
  );
  const file = shared.files![0]!;
  const response = await fetch(file.url_private_download, {
    headers: { authorization: `Bearer ${stack.config.slackBotToken}` },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const uri = decodeSlackEntities(/otpauth:\/\/totp\/[^\s`>]+/.exec(shared.text ?? '')?.[0] ?? '');
  const secret = new URL(uri).searchParams.get('secret') ?? '';
  return { shared, file, bytes, uri, secret };
}

/** `userId` enrols: `/treasury 2fa enroll`, the DM's secret, then a confirm with a code from it. */
export async function enrol(stack: LocalStack, userId: string): Promise<void> {
  const before = stack.slack.messages().length;
  await ask(stack, '2fa enroll', { userId });
  const dm = await enrolmentDm(stack, userId, before);
  const confirmed = await ask(stack, `2fa confirm ${codeFor(stack, dm.secret)}`, { userId });
  if (!confirmed.text.includes('You are enrolled.')) throw new Error(`${userId} did not enrol: ${confirmed.text}`);
}
