/**
 * The TOTP second factor: what an approval asks (`readiness`, `verify`) and `/treasury 2fa` (show, enroll,
 * confirm, reset). Each code is judged inside one atomic change of the person's record (rules.ts through the
 * repository), so two replicas never accept the same code twice. Secrets are sealed with TOTP_ENCRYPTION_KEY
 * (kernel/secret-box.ts) before they reach the store, and shown once, in the enrolment DM; no secret, URI or code
 * reaches a log line, an error text or the trail.
 */
import { generateSecret, generateURI } from 'otplib';
import QRCode from 'qrcode';
import type { SlackMessage } from '../../blocks/common.js';
import { UserFacingError } from '../../kernel/errors.js';
import { createSecretBox, type SecretBox } from '../../kernel/secret-box.js';
import { errorFields, type Logger } from '../../logger.js';
import { mayHaveHappened, type SlackGateway } from '../../slack/index.js';
import type { SecondFactorRepository } from '../repositories.js';
import { buildEnrolmentDm, buildStanding, enrolmentStartedReply, TOTP_ISSUER } from './blocks.js';
import {
  applyCode,
  applyReset,
  applyStartEnrolment,
  type CodeOutcome,
  type EnrolmentRecord,
  standingOf,
} from './rules.js';
import { CODE_WORDS, lockedAlertText } from './words.js';

/** What an approval may count on for a person now. `pending` and a damaged record count as not enrolled. */
export type SecondFactorReadiness =
  | { state: 'enrolled' }
  | { state: 'not_enrolled' }
  | { state: 'locked'; until: string };

/** The answer of a code typed for an approval; `message` is plain words for under the code input. */
export type SecondFactorVerdict =
  | { ok: true }
  | { ok: false; reason: 'wrong' | 'replayed' | 'locked' | 'not_enrolled' | 'malformed'; message: string };

/** What the second factor needs. */
export interface SecondFactorDeps {
  store: { readonly secondFactor: SecondFactorRepository };
  /** TOTP_ENCRYPTION_KEY (32 bytes); unset: nobody can enrol, and nobody counts as enrolled. */
  key: Buffer | undefined;
  slack: Pick<SlackGateway, 'post' | 'openDirectMessage' | 'uploadFile'>;
  logger: Logger;
  now: () => Date;
  /** ALERT_CHANNEL: where a lock is announced (unset: nowhere). */
  alertChannel: string | undefined;
  /** SWAP_STEP_UP_USD for people ("$50,000"), shown by `/treasury 2fa`; unset: step-up is off. */
  stepUpLabel: string | undefined;
  /** TREASURY_ADMINS (people and members of listed groups): who may reset a person's enrolment. */
  isAdmin(userId: string): Promise<boolean>;
}

/** How long verify waits for the lock's line in ALERT_CHANNEL before it answers anyway. */
const ANNOUNCE_WAIT_MS = 1_000;

const NOT_ADMIN = 'Only treasury admins (`TREASURY_ADMINS`) can reset a second factor.';

/** Builds the second factor feature. */
export function createSecondFactorService(deps: SecondFactorDeps) {
  const repository = deps.store.secondFactor;
  const box: SecretBox | undefined = deps.key ? createSecretBox(deps.key) : undefined;

  async function judge(userId: string, code: string, purpose: 'approve' | 'confirm'): Promise<CodeOutcome> {
    if (!box) return { outcome: 'not_enrolled' };
    const now = deps.now();
    const outcome = await repository.changeEnrolment(userId, (stored) =>
      applyCode(stored, {
        code,
        now,
        purpose,
        secretOf: (record: EnrolmentRecord) => box.open(record.sealedSecret, record.userId),
      }),
    );
    // Facts only: never the code.
    if (outcome.outcome === 'ok') deps.logger.info('second factor code accepted', { userId, purpose });
    else if (outcome.outcome === 'unreadable')
      deps.logger.error('a second factor cannot be read (damaged record, or another TOTP_ENCRYPTION_KEY)', {
        userId,
      });
    else deps.logger.info('second factor code refused', { userId, purpose, outcome: outcome.outcome });
    if (outcome.outcome === 'locked' && outcome.justLocked) await announceLock(userId);
    return outcome;
  }

  async function announceLock(userId: string): Promise<void> {
    deps.logger.warn("a person's approvals are locked after wrong second factor codes", { userId });
    if (!deps.alertChannel) return;
    const text = lockedAlertText(userId);
    const posted = deps.slack
      .post(deps.alertChannel, { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] })
      .then(
        () => undefined,
        (error: unknown) =>
          // The lock holds whatever Slack says: the line is news, not the lock.
          deps.logger.warn('could not post the second factor lock in ALERT_CHANNEL', {
            userId,
            error: errorFields(error),
          }),
      );
    // verify answers a modal's submission, which Slack waits 3 seconds for: a slow post finishes on its own.
    let timer: NodeJS.Timeout | undefined;
    const enough = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ANNOUNCE_WAIT_MS);
      timer.unref?.();
    });
    await Promise.race([posted, enough]);
    clearTimeout(timer);
  }

  /** Tells a person something in their DM; a failure is logged and never blocks what was done. */
  async function directMessage(userId: string, text: string, what: string): Promise<void> {
    try {
      const channel = await deps.slack.openDirectMessage(userId);
      await deps.slack.post(channel, { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
    } catch (error) {
      deps.logger.warn(`could not send ${what} by direct message`, { userId, error: errorFields(error) });
    }
  }

  return {
    /** Whether `userId` can approve above the step-up threshold now (`pending`, damaged or no key: not enrolled). */
    async readiness(userId: string): Promise<SecondFactorReadiness> {
      if (!box) return { state: 'not_enrolled' };
      const standing = standingOf(await repository.readEnrolment(userId), deps.now());
      if (standing.state === 'enrolled') return { state: 'enrolled' };
      if (standing.state === 'locked') return { state: 'locked', until: standing.until };
      return { state: 'not_enrolled' };
    },

    /**
     * Judges a code typed for an approval: accepted once (its time step is then used), with at most one step of
     * drift; five wrong (or replayed) codes in a row lock the person's approvals for 15 minutes, announced once in
     * ALERT_CHANNEL.
     */
    async verify(userId: string, code: string): Promise<SecondFactorVerdict> {
      if (!box) return { ok: false, reason: 'not_enrolled', message: CODE_WORDS.noKey };
      const outcome = await judge(userId, code, 'approve');
      const now = deps.now();
      switch (outcome.outcome) {
        case 'ok':
          return { ok: true };
        case 'wrong':
          return { ok: false, reason: 'wrong', message: CODE_WORDS.wrong(outcome.wrongCodes) };
        case 'replayed':
          return { ok: false, reason: 'replayed', message: CODE_WORDS.replayed(outcome.wrongCodes) };
        case 'locked':
          return { ok: false, reason: 'locked', message: CODE_WORDS.locked(outcome.until, now) };
        case 'malformed':
          return { ok: false, reason: 'malformed', message: CODE_WORDS.malformed };
        case 'unreadable':
          return { ok: false, reason: 'not_enrolled', message: CODE_WORDS.unreadable };
        case 'not_enrolled': {
          const standing = standingOf(await repository.readEnrolment(userId), now);
          return {
            ok: false,
            reason: 'not_enrolled',
            message: standing.state === 'pending' ? CODE_WORDS.pending : CODE_WORDS.notEnrolled,
          };
        }
      }
    },

    /** `/treasury 2fa`: the person's own state, and from which value approvals need a code. Never the secret. */
    async show(userId: string): Promise<SlackMessage> {
      const now = deps.now();
      const standing = box ? standingOf(await repository.readEnrolment(userId), now) : undefined;
      return buildStanding(standing, { now, stepUpLabel: deps.stepUpLabel });
    },

    /**
     * `/treasury 2fa enroll`: a new secret, sealed and kept as `pending` (replacing an earlier pending one), sent to
     * the person by DM as a QR code and an otpauth:// URI. Refused when enrolled (an admin resets), while locked, on
     * a damaged record, and without a key.
     */
    async enroll(userId: string): Promise<SlackMessage> {
      if (!box) throw new UserFacingError(CODE_WORDS.noKey);
      const secret = generateSecret();
      const now = deps.now();
      const outcome = await repository.changeEnrolment(userId, (stored) =>
        applyStartEnrolment(stored, { userId, sealedSecret: box.seal(secret, userId), now }),
      );
      if (outcome.outcome === 'already_enrolled')
        throw new UserFacingError(
          'You are enrolled already. To start again (a new phone, a lost app), ask a treasury admin to reset it: `/treasury 2fa reset @you`.',
        );
      if (outcome.outcome === 'locked')
        throw new UserFacingError(`${CODE_WORDS.locked(outcome.until, now)} Try again after that.`);
      if (outcome.outcome === 'unreadable') throw new UserFacingError(CODE_WORDS.unreadable);
      deps.logger.info('second factor enrolment started', { userId });
      const uri = generateURI({ issuer: TOTP_ISSUER, label: userId, secret });
      let step: 'qr' | 'dm' | 'upload' = 'qr';
      try {
        const png = await QRCode.toBuffer(uri, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
        step = 'dm';
        const channel = await deps.slack.openDirectMessage(userId);
        step = 'upload';
        const dm = buildEnrolmentDm(uri);
        await deps.slack.uploadFile({
          channel,
          filename: 'treasury-bot-second-factor.png',
          title: 'Treasury bot: your second factor',
          bytes: png,
          altText: 'A QR code that adds the treasury bot to your authenticator app',
          initialComment: dm,
        });
      } catch (error) {
        // The error's own text may quote what was sent: only its kind goes to the log.
        const kind = {
          name: error instanceof Error ? error.name : typeof error,
          code: (error as { code?: unknown })?.code,
        };
        if (step === 'upload' && mayHaveHappened(error)) {
          // Completing the upload is what shares it, and Slack may have done so before its answer was lost.
          deps.logger.warn('Slack did not confirm the second factor enrolment DM; it may have arrived', {
            userId,
            error: kind,
          });
          throw new UserFacingError(
            'Slack did not confirm the direct message with your QR code. If it arrived, scan it and type `/treasury 2fa confirm 123456`; if not, type `/treasury 2fa enroll` again (only the newest QR code then works).',
          );
        }
        deps.logger.error('the second factor enrolment DM could not be sent', { userId, step, error: kind });
        throw new UserFacingError(
          'The bot could not send you the direct message with your QR code. Try `/treasury 2fa enroll` again in a moment.',
        );
      }
      return enrolmentStartedReply();
    },

    /** `/treasury 2fa confirm <code>`: a valid code completes the enrolment (its step counts as used). */
    async confirm(userId: string, code: string): Promise<SlackMessage> {
      if (!box) throw new UserFacingError(CODE_WORDS.noKey);
      const outcome = await judge(userId, code, 'confirm');
      const now = deps.now();
      switch (outcome.outcome) {
        case 'ok':
          deps.logger.info('second factor enrolled', { userId });
          return buildStanding(standingOf(await repository.readEnrolment(userId), now), {
            now,
            stepUpLabel: deps.stepUpLabel,
            justEnrolled: true,
          });
        case 'wrong':
          throw new UserFacingError(CODE_WORDS.wrong(outcome.wrongCodes));
        case 'replayed':
          throw new UserFacingError(CODE_WORDS.replayed(outcome.wrongCodes));
        case 'locked':
          throw new UserFacingError(CODE_WORDS.locked(outcome.until, now));
        case 'malformed':
          throw new UserFacingError(CODE_WORDS.malformed);
        case 'unreadable':
          throw new UserFacingError(CODE_WORDS.unreadable);
        case 'not_enrolled': {
          const standing = standingOf(await repository.readEnrolment(userId), now);
          throw new UserFacingError(
            standing.state === 'enrolled'
              ? 'You are enrolled already: nothing to confirm.'
              : 'There is no enrolment waiting for a code: start with `/treasury 2fa enroll`.',
          );
        }
      }
    },

    /** `/treasury 2fa reset @person` (admins): removes the person's enrolment and its lock; they are told by DM. */
    async reset(adminId: string, targetId: string): Promise<SlackMessage> {
      if (!(await deps.isAdmin(adminId))) throw new UserFacingError(NOT_ADMIN, 'not_admin');
      const outcome = await repository.changeEnrolment(targetId, (stored) =>
        applyReset(stored, { userId: targetId, by: adminId, now: deps.now() }),
      );
      if (outcome.outcome === 'none') return messageOf(`<@${targetId}> has no second factor: nothing to reset.`);
      deps.logger.info('second factor reset', { userId: targetId, by: adminId, was: outcome.was });
      await directMessage(
        targetId,
        `<@${adminId}> reset your second factor for the treasury bot. To approve large swaps again, enrol anew: \`/treasury 2fa enroll\`.`,
        'the reset notice',
      );
      return messageOf(
        `<@${targetId}>'s second factor is reset (it was ${outcome.was === 'pending' ? 'waiting for its first code' : outcome.was}); any lock is lifted. They were told by direct message and can enrol again with \`/treasury 2fa enroll\`.`,
      );
    },
  };
}

function messageOf(text: string): SlackMessage {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/** The second factor feature. */
export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
