/**
 * Runway in words, for `/treasury runway`, the digest and the Home tab: one line per asset, shortest first, and the
 * notes that say what the numbers rest on. Pure: the report in, mrkdwn and Block Kit out.
 */
import { type Block, clipText, context, header, linesToSections, type SlackMessage } from '../../blocks/common.js';
import { formatTokenAmount } from '../../blocks/format.js';
import { escapeText } from '../../blocks/mrkdwn.js';
import {
  type AssetRunway,
  judgeRunway,
  parseRunwayDays,
  RUNWAY_WINDOW_DAYS,
  type RunwayReport,
  runwayLine,
} from './rules.js';

/** One asset's runway as a mrkdwn line (the asset's names come from the API: escaped), flagged when below the alert level. */
function runwayMrkdwnLine(item: AssetRunway, alertDays?: string): string {
  const line = escapeText(
    runwayLine(item, (baseUnits) => formatTokenAmount(baseUnits, item.asset.decimals, item.asset.symbol)),
  );
  const level = alertDays === undefined ? undefined : parseRunwayDays(alertDays);
  const low = level !== undefined && judgeRunway(item.runway, level) === 'below';
  return `${low ? ':warning:' : '•'} ${line}`;
}

/**
 * The lines of a report: at most `max` assets and at most `budget` characters of them (another message's room),
 * then how many more; or why there are none. Asset names from the API are clipped to 30 characters.
 */
function runwayLines(report: RunwayReport, max: number, budget = Number.POSITIVE_INFINITY): string[] {
  if (!report.ok) return [`_Runway cannot be told now: ${escapeText(report.reason)}._`];
  if (report.runways.length === 0) return ['_No assets._'];
  const lines: string[] = [];
  let used = 0;
  for (const item of report.runways.slice(0, max)) {
    const asset = { ...item.asset, symbol: clipText(item.asset.symbol, 30), network: clipText(item.asset.network, 30) };
    const line = runwayMrkdwnLine({ ...item, asset }, report.alertDays);
    if (used + line.length > budget) break;
    used += line.length + 1;
    lines.push(line);
  }
  if (report.runways.length > lines.length)
    lines.push(`_…and ${report.runways.length - lines.length} more: \`/treasury runway\` lists every one._`);
  return lines;
}

/** What the numbers rest on, in one short line (and what is missing, when something is). */
function runwayNotes(report: RunwayReport): string[] {
  if (!report.ok) return [];
  const notes = [
    `Days the balance lasts at the outflow of the last ${RUNWAY_WINDOW_DAYS} days (from the balance snapshot the bot takes each day at ${escapeText(report.snapshotsAt)}; deposits and top-ups are not counted against spending; gas top-ups count for the asset that pays for gas).`,
  ];
  if (report.gasUnreadable)
    notes.push(':warning: The gas top-ups could not be read: the runway of the asset that pays for gas is unknown.');
  if (report.alertDays) notes.push(`An alert comes when a runway falls below ${escapeText(report.alertDays)} days.`);
  return notes;
}

/** `/treasury runway`: every asset's runway, privately. */
export function buildRunway(report: RunwayReport): SlackMessage {
  const lines = runwayLines(report, 40);
  return {
    text: report.ok ? `Runway of ${report.runways.length} assets` : 'Runway cannot be told now',
    blocks: [header('Runway'), ...linesToSections(lines), ...runwayNotes(report).map((note) => context(note))].slice(
      0,
      50,
    ),
  };
}

/**
 * The runway part of another message (the digest, the Home tab): a heading, the shortest `max` within `budget`
 * characters of lines, and the notes that apply.
 */
export function runwaySection(report: RunwayReport, max: number, budget?: number): Block[] {
  const lines = runwayLines(report, max, budget);
  const notes = runwayNotes(report).slice(1);
  return [
    ...linesToSections([`*Runway* (at the outflow of the last ${RUNWAY_WINDOW_DAYS} days)`, ...lines]),
    ...(notes.length > 0 ? [context(...notes)] : []),
  ];
}
