// The second factor's end-to-end helpers over a LocalStack: the code an authenticator app would show, and the shared
// enrolment steps of test/support/second-factor.ts (the DM, and enrolling someone with another admin's confirmation).
import { generateSync } from 'otplib';
import type { LocalStack } from '../support/rig/local-stack.js';
import { enrolmentDm as dmOf, type EnrolmentRig, enrolAndConfirm } from '../support/second-factor.js';

/** The code an authenticator app shows for `secret` at the bot's clock (the simulator's), `offsetS` seconds on. */
export function codeFor(stack: LocalStack, secret: string, offsetS = 0): string {
  return generateSync({ secret, epoch: Math.floor(stack.simulator.now() / 1000) + offsetS });
}

/** The stack as the shared enrolment helpers drive it. */
function enrolmentRig(stack: LocalStack): EnrolmentRig & { botToken: string } {
  return {
    slack: stack.slack,
    driver: stack.driver,
    alertChannel: stack.config.alertChannel ?? 'C0ALERTS',
    botToken: stack.config.slackBotToken,
    code: (secret) => codeFor(stack, secret),
  };
}

/** The enrolment DM `userId` received last: its text message, its QR code's file (bytes downloaded) and secret. */
export function enrolmentDm(stack: LocalStack, userId: string, after = 0) {
  return dmOf(enrolmentRig(stack), userId, after);
}

/** `userId` enrols with a code, then `adminId` confirms the enrolment in ALERT_CHANNEL; answers the secret. */
export function enrol(stack: LocalStack, userId: string, adminId: string): Promise<string> {
  return enrolAndConfirm(enrolmentRig(stack), userId, adminId);
}
