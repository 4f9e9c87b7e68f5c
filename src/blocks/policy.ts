/**
 * `/treasury policy`: who may ask for a swap, who approves it, the limits, and what an amount would need, in
 * plain words. Pure: the policy in, Block Kit out.
 */
import { usdLabel } from '../domain/swap-policy.js';
import { ESTIMATE_VALIDITY_MS } from '../domain/swap-quote.js';
import { context, header, type SlackMessage, section } from './common.js';
import { mention } from './mrkdwn.js';

/** The policy as configured now. */
export interface PolicyView {
  approvers: readonly string[];
  allowSelfApproval: boolean;
  treasuryUsers: readonly string[];
  maxUsdCents?: bigint;
}

/** People listed by name at most; a longer list says how many more (a section holds 3,000 characters). */
const PEOPLE_SHOWN = 20;

function people(ids: readonly string[]): string {
  const shown = ids.slice(0, PEOPLE_SHOWN).map(mention).join(', ');
  return ids.length > PEOPLE_SHOWN ? `${shown} and ${ids.length - PEOPLE_SHOWN} more` : shown;
}

/** What one amount (in cents) would need under the policy now. */
function amountLine(policy: PolicyView, cents: bigint): string {
  const amount = usdLabel(cents);
  if (policy.maxUsdCents !== undefined && cents > policy.maxUsdCents)
    return `A swap worth ${amount} would be *refused*: it is above the ${usdLabel(policy.maxUsdCents)} allowed for one swap.`;
  if (policy.approvers.length === 0) return `A swap worth ${amount} could not be approved: nobody is an approver.`;
  return `A swap worth ${amount} needs *one approval* from an approver${policy.allowSelfApproval ? '' : ' other than the requester'}.`;
}

export function buildPolicy(policy: PolicyView, amountCents?: bigint): SlackMessage {
  const lines = [
    `*Who may ask for a swap:* ${policy.treasuryUsers.length === 0 ? 'everyone in this workspace' : people(policy.treasuryUsers)}.`,
    policy.approvers.length === 0
      ? '*Who approves:* nobody: no approvers are configured (`SWAP_APPROVERS`), so no swap can be approved.'
      : `*Who approves:* one approval from ${people(policy.approvers)}, whatever the amount; any of them (or the requester) may reject.`,
    policy.allowSelfApproval
      ? '*Self-approval:* allowed: a requester who is an approver may approve their own swap.'
      : '*Self-approval:* not allowed: the requester never approves their own swap.',
    policy.maxUsdCents === undefined
      ? '*Maximum per swap:* none.'
      : `*Maximum per swap:* ${usdLabel(policy.maxUsdCents)}, valued at the source asset's own price when quoted; a larger quote, or one whose value is unknown, is refused.`,
    `*Quotes:* valid for ${ESTIMATE_VALIDITY_MS / 60_000} minutes (the payment service holds an estimate that long); an expired one can be quoted again.`,
  ];
  const text = amountCents === undefined ? 'The swap approval policy' : amountLine(policy, amountCents);
  return {
    text,
    blocks: [
      header('Swap approval policy'),
      ...(amountCents === undefined ? [] : [section(amountLine(policy, amountCents))]),
      section(lines.join('\n')),
      context(
        'The policy is the deployment’s configuration (`SWAP_APPROVERS`, `ALLOW_SELF_APPROVAL`, `SWAP_MAX_USD`, `TREASURY_USERS`): changing it is a reviewed change of that configuration, never something done from Slack.',
      ),
    ],
  };
}
