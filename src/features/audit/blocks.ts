/**
 * `/treasury audit` in words: the private answer that the file follows, the refusal, the comment the
 * file is shared with, and what a person is told when it could not be sent. Pure.
 */
import { type SlackMessage, section } from '../../blocks/common.js';
import { formatCount, formatUtc } from '../../blocks/format.js';
import { escapeText } from '../../blocks/mrkdwn.js';

function message(text: string): SlackMessage {
  return { text, blocks: [section(text)] };
}

/** The answer at once: the file is being written and will arrive in the person's DM with the bot. */
export function auditAccepted(period: string, since: Date): SlackMessage {
  return message(
    `:page_facing_up: Preparing the audit trail of the last ${escapeText(period)} (since ${formatUtc(since)}). The CSV file will arrive in your direct messages with the bot in a moment.`,
  );
}

/** Someone who is not a treasury admin asked: nothing is read or sent. */
export function auditRefused(): SlackMessage {
  return message('Only treasury admins can export the audit trail (`TREASURY_ADMINS`; by default the swap approvers).');
}

/** The comment the file is shared with in the DM. */
export function auditFileComment(input: { period: string; since: Date; until: Date; rows: number }): string {
  const events = input.rows === 1 ? '1 event' : `${formatCount(input.rows)} events`;
  return `Audit trail of the last ${escapeText(input.period)}: ${events} from ${formatUtc(input.since)} to ${formatUtc(input.until)}, one row each (times in UTC; the columns are explained in the bot's docs, docs/audit-csv.md).`;
}

/** The file could not be sent: why, in plain words, and what to do. */
export function auditFailed(reason: string): SlackMessage {
  return message(
    `:warning: The audit file could not be sent: ${escapeText(reason)}. Nothing was shared; try \`/treasury audit\` again in a moment, or ask an engineer for \`npm run audit\`.`,
  );
}

/** Slack did not confirm the upload's last step: the file may be in the DM already, so no "try again". */
export function auditUnconfirmed(): SlackMessage {
  return message(
    ':warning: Slack did not confirm that the audit file was shared, so it may already be in your direct messages with the bot. Look there before asking for it again.',
  );
}
