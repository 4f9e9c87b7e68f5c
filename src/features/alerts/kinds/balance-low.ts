/**
 * An asset's balance went below its threshold: the threshold as it stood and the reading that crossed it. The alert
 * resolves itself when a later reading reaches the recovery level (poller/balances.ts raises and resolves it).
 */
import { z } from 'zod';
import { type Block, context, fields, section } from '../../../blocks/common.js';
import { formatSlackTime, formatUtc } from '../../../blocks/format.js';
import { escapeText } from '../../../blocks/mrkdwn.js';
import { centsToUsd, fromBaseUnits } from '../../../kernel/money.js';
import { assetLabel, balanceLabel, recoveryLabel, thresholdLabel } from '../../thresholds/blocks.js';
import { amountOf, defineAlertKind, safe } from './kind.js';

export const BalanceLowFacts = z.object({
  kind: z.literal('balance_low'),
  assetId: z.string(),
  symbol: z.string(),
  /** The network's symbol, as in `USDT@BSC`. */
  network: z.string(),
  decimals: z.number().int().nonnegative(),
  measure: z.enum(['units', 'usd']),
  /** Base units (`units`) or USD cents (`usd`). */
  below: z.string(),
  /** The reading that crossed: base units, and the USD value as the API wrote it. */
  balance: z.string(),
  balanceInUsd: z.string().nullable(),
  /** When the poller read it (our clock). */
  createdAt: z.string(),
});
export type BalanceLowFacts = z.infer<typeof BalanceLowFacts>;

/** An asset's balance below its threshold; `recovered` once a reading reached the recovery level (or why not). */
export const BalanceSubject = z.object({
  type: z.literal('balance'),
  facts: BalanceLowFacts,
  recovered: z
    .object({ at: z.string(), balance: z.string().optional(), balanceInUsd: z.string().nullable().optional() })
    .optional(),
  /** Set instead when the alert ended without a recovery: the threshold was removed. */
  endedBecause: z.string().optional(),
});
export type BalanceSubject = z.infer<typeof BalanceSubject>;

/** What a low-balance alert is about: the asset. */
function balanceObject(assetId: string): string {
  return `balance:${assetId}`;
}

function body(subject: BalanceSubject): Block[] {
  const f = subject.facts;
  const blocks: Block[] = [
    fields([
      ['Balance when it crossed', balanceLabel(f)],
      ['Threshold', thresholdLabel(f)],
      ['Seen', formatUtc(new Date(f.createdAt))],
      ['Resolves at', recoveryLabel(f)],
    ]),
  ];
  if (subject.recovered)
    blocks.push(
      section(
        `Back to ${subject.recovered.balance !== undefined ? balanceLabel({ ...f, balance: subject.recovered.balance, balanceInUsd: subject.recovered.balanceInUsd ?? null }) : 'the recovery level'} (seen ${formatSlackTime(new Date(subject.recovered.at))}).`,
      ),
    );
  else if (subject.endedBecause) blocks.push(section(escapeText(subject.endedBecause)));
  else
    blocks.push(
      context(
        'Top the asset up (or move funds into it). Gas top-ups that fail for lack of this balance are told in this thread. `/treasury thresholds` shows every balance now.',
      ),
    );
  return blocks;
}

export const balanceLow = defineAlertKind({
  facts: BalanceLowFacts,
  route: 'balance_low',
  digest: 'Balances below their threshold',
  objects: (f) => [balanceObject(f.assetId)],
  failure: false,
  owned: {
    schema: BalanceSubject,
    subject: (facts): BalanceSubject => ({ type: 'balance', facts }),
    title: ({ facts }) => {
      const title = `${assetLabel(facts)} balance is ${thresholdLabel(facts)}`;
      return { title, fallback: title };
    },
    body,
    about: ({ facts }) => {
      const level =
        facts.measure === 'usd'
          ? safe(() => `$${centsToUsd(BigInt(facts.below))}`)
          : safe(() => `${fromBaseUnits(facts.below, facts.decimals)} ${facts.symbol}`);
      return {
        about: `balance below its threshold of ${level ?? facts.below}`,
        asset: `${facts.symbol}@${facts.network}`,
        ...amountOf(facts.balance, facts.decimals, facts.balanceInUsd),
      };
    },
  },
});
