/**
 * The freeze's messages: the announcement in ALERT_CHANNEL (who, when, why, with Unfreeze), the line when it is
 * lifted, and the state `/treasury freeze` shows. Pure builders; the reason is escaped (someone typed it).
 */
import { actions, button, context, type SlackMessage, section } from '../../blocks/common.js';
import { ACTION_IDS } from '../../blocks/ids.js';
import { mention } from '../../blocks/mrkdwn.js';
import type { FreezeRecord } from './rules.js';
import { describeExpiredFreeze, describeFreeze } from './words.js';

function votesLine(freeze: FreezeRecord, quorum: number): string {
  const votes = freeze.unfreezeVotes.map((vote) => mention(vote.by));
  const given = votes.length === 0 ? 'no admin has pressed it yet' : `so far: ${votes.join(', ')}`;
  return `*Unfreeze* needs ${quorum} distinct admin${quorum === 1 ? '' : 's'} (\`FREEZE_UNFREEZE_QUORUM\`); ${given}.`;
}

/**
 * The announcement in ALERT_CHANNEL, with Unfreeze (its value: when this freeze began, to tell freezes apart); once
 * `lifted`, the same message without the button, saying who lifted it; once `expired`, without the button, saying
 * it ended by itself (`--for`).
 */
export function buildFreezeAnnouncement(
  freeze: FreezeRecord,
  quorum: number,
  options: { lifted?: boolean; expired?: boolean } = {},
): SlackMessage {
  const what = `:ice_cube: *Money is ${describeFreeze(freeze)}.*`;
  if (options.expired)
    return {
      text: `${describeExpiredFreeze(freeze)}.`,
      blocks: [section(`:hourglass: ${describeExpiredFreeze(freeze)} (\`--for\`); nobody needs to press Unfreeze.`)],
    };
  if (options.lifted) {
    const by = freeze.unfreezeVotes.map((vote) => mention(vote.by)).join(', ');
    return {
      text: 'The freeze is lifted.',
      blocks: [
        section(`:ice_cube: Money was ${describeFreeze(freeze)}.`),
        section(`:white_check_mark: Lifted by ${by}. Swaps and payouts may go ahead again.`),
      ],
    };
  }
  return {
    text: `Money is frozen: no swap is requested or approved, no payout container created.`,
    blocks: [
      section(what),
      section(
        'No swap can be requested or approved and no payout container created until it is lifted. Quotes waiting stay waiting. Lookups, alerts, the digest and the audit go on.',
      ),
      context(votesLine(freeze, quorum)),
      ...actions([button('Unfreeze', ACTION_IDS.freezeUnfreeze, freeze.frozenAt, { style: 'primary' })]),
    ],
  };
}

/** The line posted in ALERT_CHANNEL when the quorum lifted the freeze. */
export function buildUnfrozenLine(freeze: FreezeRecord, quorum: number): SlackMessage {
  const by = freeze.unfreezeVotes.map((vote) => mention(vote.by)).join(', ');
  const text = `:white_check_mark: The freeze is lifted by ${by} (${quorum} of ${quorum}). Swaps and payouts may go ahead again.`;
  return { text, blocks: [section(text)] };
}

/**
 * The line posted in ALERT_CHANNEL when a freeze's `--for` ran out; `inForce` is another freeze pulled since (money
 * stays frozen then).
 */
export function buildExpiredLine(freeze: FreezeRecord, inForce?: FreezeRecord): SlackMessage {
  const after = inForce ? ` Money stays ${describeFreeze(inForce)}.` : ' Swaps and payouts may go ahead again.';
  const text = `:hourglass: ${describeExpiredFreeze(freeze)}.${after}`;
  return { text, blocks: [section(text)] };
}

/**
 * What `/treasury freeze` shows: the freeze in force, or none. Without an alert channel (`announced: false`) there
 * is no announcement to press Unfreeze on: the state carries the button itself, so admins can still lift it.
 */
export function buildFreezeState(
  freeze: FreezeRecord | undefined,
  quorum: number,
  options: { announced?: boolean } = {},
): SlackMessage {
  if (!freeze) {
    const text = 'Nothing is frozen: swaps and payouts go ahead as usual. `/treasury freeze <reason>` stops them.';
    return { text, blocks: [section(text)] };
  }
  const text = `:ice_cube: Money is ${describeFreeze(freeze)}.`;
  if (options.announced !== false) return { text, blocks: [section(text), context(votesLine(freeze, quorum))] };
  return {
    text,
    blocks: [
      section(text),
      context(
        `\`ALERT_CHANNEL\` is not set, so the freeze is announced nowhere: admins press Unfreeze here, in their own \`/treasury freeze\`. ${votesLine(freeze, quorum)}`,
      ),
      ...actions([button('Unfreeze', ACTION_IDS.freezeUnfreeze, freeze.frozenAt, { style: 'primary' })]),
    ],
  };
}
