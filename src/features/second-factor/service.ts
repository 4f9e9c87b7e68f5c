/**
 * The TOTP second factor: what an approval asks (`readiness`, `verify`), `/treasury 2fa` (show, enroll, confirm,
 * reset), another admin's Confirm enrolment in ALERT_CHANNEL, and the upkeep job (lapsed enrolments, the queued
 * Slack deletions of enrolment DMs). Each code is judged inside one atomic change of the person's record (rules.ts through the
 * repository), so two replicas never accept the same code twice. Secrets are sealed with TOTP_ENCRYPTION_KEY
 * (kernel/secret-box.ts) before they reach the store, and shown once, in the enrolment DM; no secret, URI or code
 * reaches a log line, an error text or the trail.
 */
import { generateSecret, generateURI } from 'otplib';
import QRCode from 'qrcode';
import { type SlackMessage, section } from '../../blocks/common.js';
import { UserFacingError } from '../../kernel/errors.js';
import { createSecretBox, type SecretBox } from '../../kernel/secret-box.js';
import { errorFields, type Logger } from '../../logger.js';
import { describeSlackError, mayHaveHappened, type SlackGateway, triggerRefused } from '../../slack/index.js';
import type { SecondFactorRepository } from '../repositories.js';
import {
  buildEnrolmentAnnouncement,
  buildEnrolmentConfirmed,
  buildEnrolmentDm,
  buildResetPicker,
  buildStanding,
  enrolmentStartedReply,
  parseConfirmButtonValue,
  RESET_PERSON,
  resetDoneText,
  TOTP_ISSUER,
} from './blocks.js';
import {
  applyAdminConfirmation,
  applyCode,
  applyLapse,
  applyRecordDm,
  applyReset,
  applyStartEnrolment,
  type CodeOutcome,
  type DmPart,
  deletionRetryMs,
  type EnrolmentRecord,
  resetRefusal,
  type SlackDeletion,
  standingOf,
} from './rules.js';
import { ADMIN_CONFIRM_WORDS, alertChannelRef, CODE_WORDS, DM_WORDS, lockedAlertText, SELF_RESET } from './words.js';

/**
 * The reset picker's submission, judged: errors under the person input, a refusal of the whole form (mrkdwn), or
 * done (`tell` then informs the person and the admin by DM, after the modal closed).
 */
export type ResetPickerAnswer =
  | { errors: Record<string, string> }
  | { refused: string }
  | { done: true; tell: () => Promise<void> };

/** What an approval may count on for a person now. `pending` and a damaged record count as not enrolled. */
export type SecondFactorReadiness =
  | { state: 'enrolled' }
  | { state: 'not_enrolled' }
  | { state: 'locked'; until: string }
  /** Enrolled, but no other admin confirmed it yet: `message` says so in plain words. */
  | { state: 'awaiting_admin'; message: string };

/** The answer of a code typed for an approval; `message` is plain words for under the code input. */
export type SecondFactorVerdict =
  | { ok: true }
  | {
      ok: false;
      reason: 'wrong' | 'replayed' | 'locked' | 'not_enrolled' | 'awaiting_admin' | 'malformed';
      message: string;
    };

/** What the second factor needs. */
export interface SecondFactorDeps {
  store: { readonly secondFactor: SecondFactorRepository };
  /** TOTP_ENCRYPTION_KEY (32 bytes); unset: nobody can enrol, and nobody counts as enrolled. */
  key: Buffer | undefined;
  slack: Pick<
    SlackGateway,
    'post' | 'update' | 'openDirectMessage' | 'uploadFile' | 'openView' | 'deleteMessage' | 'deleteFile'
  >;
  logger: Logger;
  now: () => Date;
  /**
   * ALERT_CHANNEL: where a lock and a new enrolment are announced, and another admin confirms the enrolment (unset:
   * nobody can, so a new enrolment never counts for approvals).
   */
  alertChannel: string | undefined;
  /** SWAP_STEP_UP_USD for people ("$50,000"), shown by `/treasury 2fa`; unset: step-up is off. */
  stepUpLabel: string | undefined;
  /** TREASURY_ADMINS (people and members of listed groups): who may reset, or confirm, a person's enrolment. */
  isAdmin(userId: string): Promise<boolean>;
}

/** How long verify waits for the lock's line in ALERT_CHANNEL before it answers anyway. */
const ANNOUNCE_WAIT_MS = 1_000;

const NOT_ADMIN = 'Only treasury admins (`TREASURY_ADMINS`) can reset a second factor.';

/** How long opening the picker waits to learn whether the person is an admin (a user group asks Slack). */
const PICKER_ADMIN_CHECK_MS = 1_000;
/** Kept for views.open itself out of the command's 3 s (the trigger's life). */
const PICKER_OPEN_RESERVE_MS = 800;
/** How long the picker's submission waits to learn whether the person is an admin (Slack waits 3 s for the answer). */
const SUBMIT_ADMIN_CHECK_MS = 2_000;

/** How long `/treasury 2fa confirm` waits for Slack to delete the enrolment DM before it answers anyway. */
const DELETE_WAIT_MS = 1_500;

/** A Slack member id as the user menu gives it. */
const MEMBER_ID = /^[UW][A-Z0-9]{2,}$/;

/** Whether `check` says yes or no within `ms`; undefined when it did not answer in time or failed. */
async function answerWithin(check: Promise<boolean>, ms: number): Promise<boolean | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
    timer.unref?.();
  });
  try {
    return await Promise.race([check.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

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

  const alertMrkdwn = alertChannelRef(deps.alertChannel, 'mrkdwn');
  const alertPlain = alertChannelRef(deps.alertChannel, 'plain');

  /**
   * One try of one queued deletion: done (or already gone) leaves the queue; a failure stays queued with a later
   * try, and is logged each time (a secret left in Slack is never ignored).
   */
  async function tryDeletion(deletion: SlackDeletion): Promise<boolean> {
    try {
      const target = deletion.target;
      const answer =
        target.kind === 'message'
          ? await deps.slack.deleteMessage(target.channel, target.ts, { wait: false })
          : await deps.slack.deleteFile(target.fileId, { wait: false });
      await repository.finishSlackDeletion(deletion.id);
      deps.logger.info('second factor: enrolment DM part deleted in Slack', {
        userId: deletion.userId,
        what: target.kind,
        answer,
      });
      return true;
    } catch (error) {
      const attempts = deletion.attempts + 1;
      const reason = describeSlackError(error);
      const dueAt = new Date(deps.now().getTime() + deletionRetryMs(attempts)).toISOString();
      deps.logger.error('second factor: could not delete a part of an enrolment DM in Slack; it is tried again', {
        userId: deletion.userId,
        what: deletion.target.kind,
        attempts,
        reason,
        nextTry: dueAt,
      });
      await repository
        .postponeSlackDeletion(deletion.id, { attempts, lastError: reason.slice(0, 200), dueAt })
        .catch((failure: unknown) =>
          deps.logger.error('second factor: could not record a failed Slack deletion', {
            id: deletion.id,
            error: errorFields(failure),
          }),
        );
      return false;
    }
  }

  /** Tries now the queued deletions of `userId`'s enrolment DM; true when none is left. */
  async function deleteDmOf(userId: string): Promise<boolean> {
    const mine = (await repository.listSlackDeletions()).filter((deletion) => deletion.userId === userId);
    let allDone = true;
    for (const deletion of mine) if (!(await tryDeletion(deletion))) allDone = false;
    return allDone;
  }

  /** deleteDmOf, waiting at most `ms`: false when Slack did not confirm every deletion in time. */
  async function deleteDmWithin(userId: string, ms: number): Promise<boolean> {
    return (await answerWithin(deleteDmOf(userId), ms)) === true;
  }

  /** Records a part of the enrolment DM with its enrolment (or queues its deletion when that is gone). */
  async function recordDm(userId: string, sealedSecret: string, dm: DmPart): Promise<void> {
    try {
      const outcome = await repository.changeEnrolment(userId, (stored) =>
        applyRecordDm(stored, { userId, sealedSecret, dm, now: deps.now() }),
      );
      if (outcome === 'queued') await deleteDmOf(userId);
    } catch (error) {
      // The DM then stays until the person deletes it: said in the log, where an operator sees it.
      deps.logger.error('second factor: could not record where the enrolment DM is; it will not be deleted', {
        userId,
        error: errorFields(error),
      });
    }
  }

  /** Posts the announcement of a new enrolment in ALERT_CHANNEL; false when it could not. */
  async function announceEnrolment(userId: string, enrolledAt: string): Promise<boolean> {
    if (!deps.alertChannel) return false;
    try {
      await deps.slack.post(deps.alertChannel, buildEnrolmentAnnouncement(userId, enrolledAt, deps.now()));
      deps.logger.info('second factor: new enrolment announced for another admin to confirm', { userId });
      return true;
    } catch (error) {
      deps.logger.error('second factor: could not announce a new enrolment in ALERT_CHANNEL', {
        userId,
        reason: describeSlackError(error),
      });
      return false;
    }
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

  /** Removes a person's enrolment (and its lock) in one atomic change, recorded in the trail as reset by the admin. */
  async function resetEnrolment(
    adminId: string,
    targetId: string,
  ): Promise<'none' | { was: 'pending' | 'enrolled' | 'damaged' }> {
    const outcome = await repository.changeEnrolment(targetId, (stored) =>
      applyReset(stored, { userId: targetId, by: adminId, now: deps.now() }),
    );
    if (outcome.outcome === 'none') return 'none';
    deps.logger.info('second factor reset', { userId: targetId, by: adminId, was: outcome.was });
    // A DM still showing a secret (an enrolment not finished) goes too; the upkeep job retries what fails.
    void deleteDmOf(targetId).catch(() => undefined);
    return { was: outcome.was };
  }

  function tellResetPerson(adminId: string, targetId: string): Promise<void> {
    return directMessage(
      targetId,
      `<@${adminId}> reset your second factor for the treasury bot. To approve large swaps again, enrol anew: \`/treasury 2fa enroll\`.`,
      'the reset notice',
    );
  }

  return {
    /** Whether `userId` can approve above the step-up threshold now (`pending`, damaged or no key: not enrolled). */
    async readiness(userId: string): Promise<SecondFactorReadiness> {
      if (!box) return { state: 'not_enrolled' };
      const standing = standingOf(await repository.readEnrolment(userId), deps.now());
      if (standing.state === 'enrolled') return { state: 'enrolled' };
      if (standing.state === 'locked') return { state: 'locked', until: standing.until };
      if (standing.state === 'awaiting_admin')
        return { state: 'awaiting_admin', message: CODE_WORDS.awaitingAdmin(alertPlain) };
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
        case 'awaiting_admin':
          return { ok: false, reason: 'awaiting_admin', message: CODE_WORDS.awaitingAdmin(alertPlain) };
        case 'lapsed':
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
      return buildStanding(standing, { now, stepUpLabel: deps.stepUpLabel, alertChannel: alertMrkdwn });
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
      const sealedSecret = outcome.record.sealedSecret;
      let step: 'qr' | 'dm' | 'post' | 'upload' = 'qr';
      try {
        const png = await QRCode.toBuffer(uri, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
        step = 'dm';
        const channel = await deps.slack.openDirectMessage(userId);
        // The text (with the URI) and the QR code as two messages: each is deleted by what Slack offers for it
        // (chat.delete by its ts, files.delete by the file's id), and each is recorded as soon as it exists.
        step = 'post';
        const text = buildEnrolmentDm(uri, alertMrkdwn);
        const ts = await deps.slack.post(channel, {
          text,
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
        });
        await recordDm(userId, sealedSecret, { channel, ts });
        step = 'upload';
        const { fileId } = await deps.slack.uploadFile({
          channel,
          filename: 'treasury-bot-second-factor.png',
          title: 'Treasury bot: your second factor',
          bytes: png,
          altText: 'A QR code that adds the treasury bot to your authenticator app',
        });
        await recordDm(userId, sealedSecret, { channel, fileId });
      } catch (error) {
        // The error's own text may quote what was sent: only its kind goes to the log.
        const kind = {
          name: error instanceof Error ? error.name : typeof error,
          code: (error as { code?: unknown })?.code,
        };
        if ((step === 'upload' || step === 'post') && mayHaveHappened(error)) {
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
        case 'ok': {
          deps.logger.info('second factor enrolled', { userId });
          const [deleted, standing] = await Promise.all([
            deleteDmWithin(userId, DELETE_WAIT_MS),
            repository.readEnrolment(userId),
          ]);
          const record = standing.kind === 'enrolment' ? standing.record : undefined;
          const announced = record?.enrolledAt ? await announceEnrolment(userId, record.enrolledAt) : false;
          const reply = buildStanding(standingOf(standing, now), {
            now,
            stepUpLabel: deps.stepUpLabel,
            alertChannel: alertMrkdwn,
            justEnrolled: { dm: deleted ? DM_WORDS.deleted : DM_WORDS.notYetDeleted },
          });
          return announced ? reply : withLine(reply, notAnnouncedLine(deps.alertChannel));
        }
        case 'lapsed': {
          const deleted = await deleteDmWithin(userId, DELETE_WAIT_MS);
          throw new UserFacingError(deleted ? DM_WORDS.lapsed : DM_WORDS.lapsedNotYetDeleted);
        }
        case 'awaiting_admin':
          throw new UserFacingError(CODE_WORDS.awaitingAdmin(alertMrkdwn));
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
          const stored = await repository.readEnrolment(userId);
          const standing = standingOf(stored, now);
          if (standing.state === 'awaiting_admin' && stored.kind === 'enrolment' && stored.record.enrolledAt) {
            // The announcement may have been lost: confirm again posts it again.
            const announced = await announceEnrolment(userId, stored.record.enrolledAt);
            return messageOf(
              announced
                ? `You are enrolled already. The bot posted your enrolment again in ${alertMrkdwn}: ${CODE_WORDS.awaitingAdmin(alertMrkdwn)}`
                : `You are enrolled already. ${CODE_WORDS.awaitingAdmin(alertMrkdwn)} ${notAnnouncedLine(deps.alertChannel)}`,
            );
          }
          throw new UserFacingError(
            standing.state === 'enrolled'
              ? 'You are enrolled already: nothing to confirm.'
              : 'There is no enrolment waiting for a code: start with `/treasury 2fa enroll`.',
          );
        }
      }
    },

    /** `/treasury 2fa reset U…` (admins): removes the person's enrolment and its lock; they are told by DM. */
    async reset(adminId: string, targetId: string): Promise<SlackMessage> {
      if (!(await deps.isAdmin(adminId))) throw new UserFacingError(NOT_ADMIN, 'not_admin');
      if (resetRefusal(adminId, targetId) === 'self') throw new UserFacingError(SELF_RESET);
      const outcome = await resetEnrolment(adminId, targetId);
      if (outcome === 'none') return messageOf(`<@${targetId}> has no second factor: nothing to reset.`);
      await tellResetPerson(adminId, targetId);
      return messageOf(resetDoneText(targetId, outcome.was));
    },

    /**
     * `/treasury 2fa reset` without a member id: opens the person picker with the command's trigger. Refuses a
     * known non-admin first, waiting for that answer only while the trigger can still open the modal (a user group
     * Slack is slow to list opens it anyway: the submission asks again, and an unknown answer refuses there).
     */
    async openResetPicker(adminId: string, trigger: { id: string; openBy: number }, typed?: string): Promise<void> {
      const waitMs = Math.min(PICKER_ADMIN_CHECK_MS, trigger.openBy - PICKER_OPEN_RESERVE_MS - Date.now());
      if ((await answerWithin(deps.isAdmin(adminId), waitMs)) === false)
        throw new UserFacingError(NOT_ADMIN, 'not_admin');
      try {
        await deps.slack.openView(trigger.id, buildResetPicker(typed));
      } catch (error) {
        deps.logger.warn('second factor: could not open the reset picker', { reason: describeSlackError(error) });
        throw new UserFacingError(
          triggerRefused(error)
            ? 'Slack did not open the picker in time (it allows 3 seconds after the command). Type `/treasury 2fa reset` again, or give their member id: `/treasury 2fa reset U0RILEY`.'
            : 'Slack did not open the picker. Type `/treasury 2fa reset` again in a moment, or give their member id: `/treasury 2fa reset U0RILEY`.',
        );
      }
    },

    /**
     * The picker's submission: `picked` is the users_select's `selected_user` (null when nobody was chosen). Checks
     * the admin again (unknown refuses), resets within Slack's 3 s, and leaves the DMs for after the modal closed.
     */
    async submitResetPicker(adminId: string, picked: unknown): Promise<ResetPickerAnswer> {
      if (typeof picked !== 'string' || picked === '')
        return { errors: { [RESET_PERSON.blockId]: 'Nobody picked: choose the person whose second factor to reset.' } };
      if (!MEMBER_ID.test(picked))
        return {
          errors: { [RESET_PERSON.blockId]: 'That is not a person the bot can reset: choose one in the menu.' },
        };
      const admin = await answerWithin(deps.isAdmin(adminId), SUBMIT_ADMIN_CHECK_MS);
      if (admin === undefined)
        return {
          refused:
            'The bot could not confirm that you are a treasury admin (Slack did not list the admin group in time). Nothing was reset: try again in a moment.',
        };
      if (!admin) return { refused: NOT_ADMIN };
      if (resetRefusal(adminId, picked) === 'self') return { errors: { [RESET_PERSON.blockId]: SELF_RESET_PLAIN } };
      const outcome = await resetEnrolment(adminId, picked);
      if (outcome === 'none')
        return { errors: { [RESET_PERSON.blockId]: 'That person has no second factor: nothing to reset.' } };
      return {
        done: true,
        tell: async () => {
          await tellResetPerson(adminId, picked);
          await directMessage(adminId, resetDoneText(picked, outcome.was), 'the reset confirmation');
        },
      };
    },

    /**
     * Confirm enrolment, clicked in ALERT_CHANNEL: `clickerId` is the click's own user id (the judge), `value` the
     * button's (which enrolment). Another admin than the enrolled person confirms it once; the announcement then
     * loses its button and the person is told by DM. Answers what to tell the clicker (mrkdwn).
     */
    async confirmByAdmin(
      clickerId: string,
      value: string | undefined,
      announcement: { channel: string; ts: string } | undefined,
    ): Promise<string> {
      const named = parseConfirmButtonValue(value);
      if (!named) return ADMIN_CONFIRM_WORDS.bad;
      if (named.userId === clickerId) return ADMIN_CONFIRM_WORDS.self;
      const admin = await answerWithin(deps.isAdmin(clickerId), SUBMIT_ADMIN_CHECK_MS);
      if (admin === undefined) return ADMIN_CONFIRM_WORDS.unknownAdmin;
      const now = deps.now();
      const outcome = await repository.changeEnrolment(named.userId, (stored) =>
        applyAdminConfirmation(stored, {
          userId: named.userId,
          clickerId,
          clickerIsAdmin: admin,
          enrolledAt: named.enrolledAt,
          now,
        }),
      );
      switch (outcome.outcome) {
        case 'self':
          return ADMIN_CONFIRM_WORDS.self;
        case 'not_admin':
          return ADMIN_CONFIRM_WORDS.notAdmin;
        case 'gone':
          return ADMIN_CONFIRM_WORDS.gone;
        case 'already':
          return ADMIN_CONFIRM_WORDS.already(outcome.by);
        case 'confirmed':
          break;
      }
      deps.logger.info('second factor enrolment confirmed by another admin', { userId: named.userId, by: clickerId });
      if (announcement)
        await deps.slack
          .update(
            announcement.channel,
            announcement.ts,
            buildEnrolmentConfirmed(named.userId, named.enrolledAt, clickerId, now),
          )
          .catch((error: unknown) =>
            deps.logger.warn('second factor: could not mark the enrolment announcement as confirmed', {
              reason: describeSlackError(error),
            }),
          );
      await directMessage(
        named.userId,
        `<@${clickerId}> confirmed your new second factor for the treasury bot: your codes count for approvals now.`,
        'the enrolment confirmation',
      );
      return `You confirmed <@${named.userId}>'s new second factor: it counts for their approvals now.`;
    },

    /**
     * The upkeep job (leader): clears enrolments whose first code did not come within 10 minutes (each person told
     * by DM), then tries every queued Slack deletion that is due, each failure logged and tried again later.
     */
    async upkeep(): Promise<void> {
      const now = deps.now();
      for (const userId of await repository.listPendingEnrolments()) {
        const outcome = await repository.changeEnrolment(userId, (stored) => applyLapse(stored, now));
        if (outcome !== 'lapsed') continue;
        deps.logger.info('second factor enrolment lapsed without a code', { userId });
        const deleted = await deleteDmOf(userId);
        await directMessage(userId, deleted ? DM_WORDS.lapsed : DM_WORDS.lapsedNotYetDeleted, 'the lapse notice');
      }
      for (const deletion of await repository.listSlackDeletions(deps.now())) await tryDeletion(deletion);
    },
  };
}

/** The picker's error under the person menu (plain text). */
const SELF_RESET_PLAIN = SELF_RESET.replace(/`/g, '');

/** Why a new enrolment was not announced, for the person (mrkdwn). */
function notAnnouncedLine(alertChannel: string | undefined): string {
  return alertChannel === undefined
    ? '`ALERT_CHANNEL` is not set on this bot, so no admin can confirm your enrolment and it does not count for approvals: an engineer sets it.'
    : 'The bot could not post your enrolment in the alert channel: type `/treasury 2fa confirm` again to post it there.';
}

function withLine(message: SlackMessage, line: string): SlackMessage {
  return { text: `${message.text} ${line.replace(/[*`]/g, '')}`, blocks: [...message.blocks, section(line)] };
}

function messageOf(text: string): SlackMessage {
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/** The second factor feature. */
export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
