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
import { buildFreezeAnnouncement, buildFreezeState, buildUnfrozenLine } from './blocks.js';
import { type FreezeRoles, MAX_FREEZE_REASON_LENGTH, mayFreeze, mayVoteUnfreeze } from './rules.js';
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

  async function announce(message: SlackMessage, what: string): Promise<void> {
    if (!deps.alertChannel) return;
    try {
      await deps.slack.post(deps.alertChannel, message);
    } catch (error) {
      // The freeze is in force whatever Slack says: the announcement is news, not the switch.
      deps.logger.warn(`could not post ${what} in ALERT_CHANNEL`, { error: errorFields(error) });
    }
  }

  async function afterChange(): Promise<void> {
    try {
      await deps.afterChange?.();
    } catch (error) {
      deps.logger.warn('could not show the freeze change on the waiting quotes', { error: errorFields(error) });
    }
  }

  return {
    /** `/treasury freeze`: the freeze in force, or none. */
    async show(): Promise<SlackMessage> {
      return buildFreezeState(await repository.currentFreeze(deps.now()), deps.quorum);
    },

    /** `/treasury freeze <reason> [--for …]`: pulls the freeze, announces it; refused while one is in force. */
    async freeze(userId: string, reason: string, forMs?: number): Promise<SlackMessage> {
      if (!mayFreeze(await deps.rolesOf(userId))) throw new UserFacingError(NOT_TRUSTED, 'not_admin');
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
      await announce(buildFreezeAnnouncement(outcome.freeze, deps.quorum), 'the freeze');
      await afterChange();
      return buildFreezeState(outcome.freeze, deps.quorum);
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
      if (!mayVoteUnfreeze(await deps.rolesOf(userId))) return NOT_ADMIN;
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
