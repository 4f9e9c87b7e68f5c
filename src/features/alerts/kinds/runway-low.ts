/**
 * An asset's runway (days its balance lasts at its recent outflow, features/runway) fell below RUNWAY_ALERT_DAYS:
 * the level as it stood and the forecast that crossed it, as people read them. The alert resolves itself when a
 * later forecast reaches the level plus the margin (poller/runways.ts raises and resolves it).
 */
import { z } from 'zod';
import { type Block, context, fields, section } from '../../../blocks/common.js';
import { formatSlackTime, formatUtc } from '../../../blocks/format.js';
import { escapeText } from '../../../blocks/mrkdwn.js';
import { assetLabel, balanceLabel } from '../../thresholds/blocks.js';
import { amountOf, defineAlertKind } from './kind.js';

const RunwayLowFacts = z.object({
  kind: z.literal('runway_low'),
  assetId: z.string(),
  symbol: z.string(),
  /** The network's symbol, as in `USDT@ETH`. */
  network: z.string(),
  decimals: z.number().int().nonnegative(),
  /** RUNWAY_ALERT_DAYS when it crossed (`3`). */
  belowDays: z.string(),
  /** The level that resolves it, in days (`3.3`). */
  recoversAtDays: z.string(),
  /** The forecast that crossed, rounded down as shown (`2.4`), and its outflow (`$4,100.00/day`). */
  days: z.string(),
  outflow: z.string(),
  /** The balance it was counted from: base units, and the USD value as the API wrote it. */
  balance: z.string(),
  balanceInUsd: z.string().nullable(),
  /** When the poller read it (our clock). */
  createdAt: z.string(),
});
export type RunwayLowFacts = z.infer<typeof RunwayLowFacts>;

/** An asset's runway below RUNWAY_ALERT_DAYS; `recovered` once a forecast reached the recovery level. */
export const RunwaySubject = z.object({
  type: z.literal('runway'),
  facts: RunwayLowFacts,
  recovered: z.object({ at: z.string(), days: z.string().optional() }).optional(),
  /** Set instead when the alert ended without a recovery: RUNWAY_ALERT_DAYS was changed or unset. */
  endedBecause: z.string().optional(),
});
export type RunwaySubject = z.infer<typeof RunwaySubject>;

/** What a low-runway alert is about: the asset's runway (its own incident, apart from its threshold's). */
function runwayObject(assetId: string): string {
  return `runway:${assetId}`;
}

function body(subject: RunwaySubject): Block[] {
  const f = subject.facts;
  const blocks: Block[] = [
    fields([
      ['Runway when it crossed', `about ${escapeText(f.days)} days at ${escapeText(f.outflow)}`],
      ['Balance', balanceLabel(f)],
      ['Alert below', `${escapeText(f.belowDays)} days (\`RUNWAY_ALERT_DAYS\`)`],
      ['Resolves at', `${escapeText(f.recoversAtDays)} days`],
      ['Seen', formatUtc(new Date(f.createdAt))],
    ]),
  ];
  if (subject.recovered)
    blocks.push(
      section(
        `Back to ${subject.recovered.days !== undefined ? `about ${escapeText(subject.recovered.days)} days` : 'the recovery level'} (seen ${formatSlackTime(new Date(subject.recovered.at))}).`,
      ),
    );
  else if (subject.endedBecause) blocks.push(section(escapeText(subject.endedBecause)));
  else
    blocks.push(
      context(
        'At the outflow of the last 7 days (deposits not counted), the balance runs out soon: top it up or slow the spending. `/treasury runway` shows every asset now.',
      ),
    );
  return blocks;
}

export const runwayLow = defineAlertKind({
  facts: RunwayLowFacts,
  route: 'runway_low',
  digest: 'Runways below RUNWAY_ALERT_DAYS',
  objects: (f) => [runwayObject(f.assetId)],
  failure: false,
  owned: {
    schema: RunwaySubject,
    subject: (facts): RunwaySubject => ({ type: 'runway', facts }),
    title: ({ facts }) => {
      const title = `${assetLabel(facts)} runway is below ${escapeText(facts.belowDays)} days`;
      return { title, fallback: `${title}: about ${escapeText(facts.days)} days at ${escapeText(facts.outflow)}` };
    },
    body,
    about: ({ facts }) => ({
      about: `runway of about ${facts.days} days at ${facts.outflow}, below RUNWAY_ALERT_DAYS of ${facts.belowDays}`,
      asset: `${facts.symbol}@${facts.network}`,
      ...amountOf(facts.balance, facts.decimals, facts.balanceInUsd),
    }),
  },
});
