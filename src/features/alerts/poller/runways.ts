/**
 * Runways in the poll (RUNWAY_ALERT_DAYS): each poll forecasts every asset from the asset list it reads (the runway
 * feature judges; app.ts composes it in), and the crossings are applied to the alert state in the poll's one commit.
 *
 * - A runway going below the level queues one `runway_low` alert and marks the asset low (`runwaysLow`), in the
 *   same commit: a restart neither repeats nor loses the crossing.
 * - A low runway back at the recovery level (the level plus its margin), or an asset no longer spending, resolves
 *   that alert by the facts; a runway hovering around the level raises no second alert. Still learning, or unknown
 *   (the gas list unreadable for the gas donor), is judged neither way.
 * - A changed RUNWAY_ALERT_DAYS ends the alerts raised at the old level (the assets are judged afresh); an unset one
 *   ends them all. An alert still waiting for Slack that no longer stands is dropped.
 */
import type { Asset } from '../../../payments/index.js';
import { resolveAlertByFacts } from '../lifecycle.js';
import { appendEvent } from '../owned.js';
import { type AlertsState, keyedRecord, type OutboxItem, type OwnedAlert } from '../records.js';
import { describeReadError } from './read-error.js';

/** One asset's runway as the poller is given it, judged against RUNWAY_ALERT_DAYS. */
export interface RunwayJudgement {
  assetId: string;
  symbol: string;
  network: string;
  decimals: number;
  /** Base units, and the USD value as the API wrote it. */
  balance: string;
  balanceInUsd: string | null;
  /** `below` the level, `recovered` (at the level plus the margin, or not spending), `between`, or `unjudged`. */
  verdict: 'below' | 'between' | 'recovered' | 'unjudged';
  /** The runway as people read it (`2.4`) and its outflow (`$4,100.00/day`), when it is spending. */
  days?: string;
  outflow?: string;
}

/** What the poll needs to watch runways: the level as typed, its recovery level, and the judge. */
export interface RunwayWatch {
  /** RUNWAY_ALERT_DAYS as typed (`3`). */
  levelText: string;
  /** The level that resolves a low runway, in days (`3.3`). */
  recoversAtText: string;
  /** Judges every asset of the list read now. */
  judge(assets: readonly Asset[]): Promise<RunwayJudgement[]>;
}

/** What the poll read for the runways: the level, and the judgements (or why they could not be made). */
export interface RunwaysRead {
  levelText: string;
  recoversAtText: string;
  judged: { ok: true; byId: Map<string, RunwayJudgement> } | { ok: false; code: string; message: string };
}

/** Reads the assets (through the poll's one read) and judges them. Never throws. */
export async function readRunways(
  watch: RunwayWatch,
  listAssets: () => Promise<readonly Asset[]>,
): Promise<RunwaysRead> {
  const level = { levelText: watch.levelText, recoversAtText: watch.recoversAtText };
  try {
    const judgements = await watch.judge(await listAssets());
    return { ...level, judged: { ok: true, byId: new Map(judgements.map((j) => [j.assetId, j])) } };
  } catch (error) {
    return { ...level, judged: { ok: false, ...describeReadError(error) } };
  }
}

/** The outbox key of the low-runway alert raised for `assetId` at `at`. */
function lowRunwayKey(assetId: string, at: string): string {
  return `runway_low:${assetId}:${at}`;
}

/**
 * Applies a runways read to the state (inside the poll's commit; pure). `read` undefined: runway alerts are off
 * (RUNWAY_ALERT_DAYS unset), and whatever they left open ends. Returns how many crossings were queued.
 */
export function commitRunways(
  alerts: AlertsState,
  read: RunwaysRead | undefined,
  now: Date,
  enqueue: (item: OutboxItem) => void,
): number {
  const nowIso = now.toISOString();
  const low = alerts.runwaysLow ?? keyedRecord();
  let crossings = 0;
  // Raised at another level (or with the alert off): that alert ends, and the runway is judged afresh.
  for (const [assetId, entry] of Object.entries(low)) if (entry.belowDays !== read?.levelText) delete low[assetId];

  const judged = read?.judged.ok ? read.judged.byId : undefined;
  if (read && judged) {
    for (const [assetId, judgement] of judged) {
      const wasLow = Object.hasOwn(low, assetId);
      if (judgement.verdict === 'below' && !wasLow) {
        const key = lowRunwayKey(assetId, nowIso);
        low[assetId] = { since: nowIso, alertKey: key, belowDays: read.levelText };
        enqueue({
          key,
          queuedAt: nowIso,
          facts: {
            kind: 'runway_low',
            assetId,
            symbol: judgement.symbol,
            network: judgement.network,
            decimals: judgement.decimals,
            belowDays: read.levelText,
            recoversAtDays: read.recoversAtText,
            days: judgement.days ?? '0',
            outflow: judgement.outflow ?? 'unknown',
            balance: judgement.balance,
            balanceInUsd: judgement.balanceInUsd,
            createdAt: nowIso,
          },
        });
        crossings += 1;
      } else if (judgement.verdict === 'recovered' && wasLow) {
        delete low[assetId];
      }
    }
  }

  // Every open low-runway alert that no longer stands resolves itself: also one that reached Slack late.
  const stands = (assetId: string, key: string) => Object.hasOwn(low, assetId) && low[assetId]!.alertKey === key;
  for (const alert of Object.values(alerts.owned ?? {})) {
    const subject = alert.subject;
    if (subject.type !== 'runway' || alert.life.state === 'resolved') continue;
    const { assetId, belowDays } = subject.facts;
    if (stands(assetId, alert.key)) continue;
    if (!read) endAlert(alert, now, 'RUNWAY_ALERT_DAYS is no longer set', 'RUNWAY_ALERT_DAYS is no longer set.');
    else if (belowDays !== read.levelText)
      endAlert(
        alert,
        now,
        `RUNWAY_ALERT_DAYS was changed to ${read.levelText}`,
        `RUNWAY_ALERT_DAYS was changed to ${read.levelText} days; a runway below that has its own alert.`,
      );
    else recoverAlert(alert, now, judged?.get(assetId), read.recoversAtText);
  }
  // A crossing still waiting for Slack that no longer stands: nothing to say any more (one that may have been posted
  // already stays: the delivery finds it, and the next poll resolves it).
  alerts.outbox = alerts.outbox.filter(
    (item) => item.facts.kind !== 'runway_low' || item.sending !== undefined || stands(item.facts.assetId, item.key),
  );
  if (Object.keys(low).length > 0) alerts.runwaysLow = low;
  else delete alerts.runwaysLow;
  return crossings;
}

function recoverAlert(alert: OwnedAlert, now: Date, judgement: RunwayJudgement | undefined, recoversAt: string) {
  if (alert.subject.type !== 'runway') return;
  const reason =
    judgement?.days !== undefined
      ? `the runway is back at about ${judgement.days} days, at or above ${recoversAt}`
      : 'nothing leaves the asset any more';
  const change = resolveAlertByFacts(alert.life, now, reason);
  if (!change) return;
  alert.life = change.life;
  appendEvent(alert, change.event);
  alert.subject.recovered = {
    at: now.toISOString(),
    ...(judgement?.days !== undefined ? { days: judgement.days } : {}),
  };
}

function endAlert(alert: OwnedAlert, now: Date, reason: string, because: string): void {
  if (alert.subject.type !== 'runway') return;
  const change = resolveAlertByFacts(alert.life, now, reason);
  if (!change) return;
  alert.life = change.life;
  appendEvent(alert, change.event);
  alert.subject.endedBecause = because;
}
