/**
 * The freeze feature: `/treasury freeze <reason> [--for 2h]` pulls it (an approver or an admin), `/treasury freeze`
 * shows it, Unfreeze in ALERT_CHANNEL counts one admin's vote. Who may act is checked here; the change itself is
 * one atomic change of the store (rules.ts), which every swap and payout decision reads inside its own.
 */
import type { SlackMessage } from '../../blocks/common.js';
import { UserFacingError } from '../../kernel/errors.js';
import { errorFields, type Logger } from '../../logger.js';
import type { SlackGateway } from '../../slack/gateway.js';
import type { FreezeRepository } from '../repositories.js';
import { buildExpiredLine, buildFreezeAnnouncement, buildFreezeState, buildUnfrozenLine } from './blocks.js';
import { type FreezeRecord, type FreezeRoles, MAX_FREEZE_REASON_LENGTH, mayFreeze, mayVoteUnfreeze } from './rules.js';
import { describeFreeze } from './words.js';

/** What the freeze feature needs. */
export interface FreezeDeps {
  store: { readonly freeze: FreezeRepository };
  slack: Pick<SlackGateway, 'post' | 'update'>;
  logger: Logger;
  now: () => Date;
  /** ALERT_CHANNEL: where the freeze is announced (unset: nowhere, and nobody can click Unfreeze there). */
  alertChannel: string | undefined;
  /** FREEZE_UNFREEZE_QUORUM. */
  quorum: number;
  /** Whether the person is a swap approver (SWAP_APPROVERS) and an admin (TREASURY_ADMINS), groups included. */
  rolesOf(userId: string): Promise<FreezeRoles>;
  /** After the freeze is pulled or lifted: the waiting quotes' messages show it (or no longer). Never throws. */
  afterChange?: () => Promise<void>;
}

const NOT_TRUSTED =
  'Only swap approvers (`SWAP_APPROVERS`) and treasury admins (`TREASURY_ADMINS`) can freeze. `/treasury freeze` shows the state to everyone.';
const NOT_ADMIN = 'Only treasury admins (`TREASURY_ADMINS`) can vote to unfreeze. Your click was not counted.';

/** Builds the freeze feature. */
export function createFreezeService(deps: FreezeDeps) {
  const { freeze: repository } = deps.store;

  /** Posts in ALERT_CHANNEL; answers where the post is (undefined: no channel, or Slack did not take it). */
  async function announce(message: SlackMessage, what: string): Promise<{ channel: string; ts: string } | undefined> {
    if (!deps.alertChannel) return undefined;
    try {
      return { channel: deps.alertChannel, ts: await deps.slack.post(deps.alertChannel, message) };
    } catch (error) {
      // The freeze is in force whatever Slack says: the announcement is news, not the switch.
      deps.logger.warn(`could not post ${what} in ALERT_CHANNEL`, { error: errorFields(error) });
      return undefined;
    }
  }

  /** Ends one freeze whose `--for` ran out, in Slack: its announcement loses Unfreeze, one line says it ended. */
  async function announceExpiry(ended: FreezeRecord, inForce: FreezeRecord | undefined): Promise<void> {
    if (ended.announcement) {
      try {
        const { channel, ts } = ended.announcement;
        await deps.slack.update(channel, ts, buildFreezeAnnouncement(ended, deps.quorum, { expired: true }));
      } catch (error) {
        // The expiry is claimed and recorded; the old button only answers "nothing is frozen now".
        deps.logger.warn('could not edit the announcement of a freeze that ended by itself', {
          error: errorFields(error),
        });
      }
    }
    await announce(buildExpiredLine(ended, inForce), 'the end of a freeze');
  }

  async function afterChange(): Promise<void> {
    try {
      await deps.afterChange?.();
    } catch (error) {
      deps.logger.warn('could not show the freeze change on the waiting quotes', { error: errorFields(error) });
    }
  }

  return {
    /**
     * One round of the expiry job (every replica): claims the freezes whose `--for` ran out (each once across
     * replicas, its `expired` line at its `until`), then says so in Slack and re-renders the waiting quotes. A Slack
     * failure is logged and not tried again (the claim is taken). Answers how many ended.
     */
    async endExpired(): Promise<number> {
      const now = deps.now();
      const ended = await repository.claimExpiredFreezes(now);
      if (ended.length === 0) return 0;
      const inForce = await repository.currentFreeze(now).catch(() => undefined);
      for (const freeze of ended) {
        deps.logger.info('a freeze ended by itself', { frozenAt: freeze.frozenAt, until: freeze.until });
        await announceExpiry(freeze, inForce);
      }
      await afterChange();
      return ended.length;
    },

    /** `/treasury freeze`: the freeze in force, or none. */
    async show(): Promise<SlackMessage> {
      return buildFreezeState(await repository.currentFreeze(deps.now()), deps.quorum, {
        announced: deps.alertChannel !== undefined,
      });
    },

    /** `/treasury freeze <reason> [--for …]`: pulls the freeze, announces it; refused while one is in force. */
    async freeze(userId: string, reason: string, forMs?: number): Promise<SlackMessage> {
      if (!mayFreeze(await deps.rolesOf(userId))) {
        deps.logger.info('freeze refused: not an approver or admin', { userId });
        throw new UserFacingError(NOT_TRUSTED, 'not_admin');
      }
      if (reason.length > MAX_FREEZE_REASON_LENGTH)
        throw new UserFacingError(
          `The reason is ${reason.length} characters long; give at most ${MAX_FREEZE_REASON_LENGTH}.`,
        );
      const outcome = await repository.freeze({
        by: userId,
        at: deps.now(),
        reason,
        ...(forMs === undefined ? {} : { forMs }),
      });
      if (!outcome.ok)
        throw new UserFacingError(`Money is already ${describeFreeze(outcome.freeze)}. Nothing changed.`);
      deps.logger.info('money frozen', { userId, until: outcome.freeze.until });
      const posted = await announce(buildFreezeAnnouncement(outcome.freeze, deps.quorum), 'the freeze');
      // Kept so that the expiry job can take Unfreeze off the announcement when `--for` runs out.
      if (posted)
        await repository.recordFreezeAnnouncement(outcome.freeze.frozenAt, posted).catch((error: unknown) => {
          deps.logger.warn('could not keep where the freeze was announced', { error: errorFields(error) });
        });
      await afterChange();
      return buildFreezeState(outcome.freeze, deps.quorum, { announced: deps.alertChannel !== undefined });
    },

    /**
     * Unfreeze: one admin's vote on the freeze the announcement is about (`frozenAt`, the button's value); the
     * quorum lifts it. The announcement (`announcement`, where the click came from) then shows the votes, or that
     * it was lifted. Answers what the clicker is told.
     */
    async voteUnfreeze(
      userId: string,
      frozenAt?: string,
      announcement?: { channel: string; ts: string },
    ): Promise<string> {
      if (!mayVoteUnfreeze(await deps.rolesOf(userId))) {
        deps.logger.info('unfreeze vote refused: not an admin', { userId });
        return NOT_ADMIN;
      }
      const outcome = await repository.voteUnfreeze(
        { by: userId, at: deps.now(), ...(frozenAt === undefined ? {} : { frozenAt }) },
        deps.quorum,
      );
      if (!outcome.ok) {
        if (outcome.reason === 'not_frozen')
          return 'Nothing is frozen now (it was lifted, or its time ran out). Your click changed nothing.';
        if (outcome.reason === 'another_freeze')
          return `This button belongs to an earlier freeze, which has ended. Money is ${describeFreeze(outcome.freeze)}; press Unfreeze on its own announcement. Your click changed nothing.`;
        return `You have voted already (${outcome.votes} of ${outcome.quorum}). Another admin must press Unfreeze.`;
      }
      deps.logger.info('unfreeze vote', { userId, votes: outcome.votes, quorum: outcome.quorum });
      if (announcement) {
        try {
          await deps.slack.update(
            announcement.channel,
            announcement.ts,
            buildFreezeAnnouncement(outcome.freeze, outcome.quorum, { lifted: outcome.unfrozen }),
          );
        } catch (error) {
          // The vote is recorded; the message catches up at the next click.
          deps.logger.warn('could not update the freeze announcement', { error: errorFields(error) });
        }
      }
      if (!outcome.unfrozen)
        return `Your vote is recorded (${outcome.votes} of ${outcome.quorum}). The freeze stays until ${outcome.quorum - outcome.votes} more admin(s) press Unfreeze.`;
      await announce(buildUnfrozenLine(outcome.freeze, outcome.quorum), 'the unfreeze');
      await afterChange();
      return `Your vote lifted the freeze (${outcome.votes} of ${outcome.quorum}).`;
    },
  };
}

/** The freeze feature. */
export type FreezeService = ReturnType<typeof createFreezeService>;
