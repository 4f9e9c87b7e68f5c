/**
 * The daily digest: once a day at DIGEST_AT, from the replica that polls, in DIGEST_CHANNEL; words first,
 * then a 30-day chart in its thread. `/treasury digest` shows the same words privately, composed at once.
 *
 * Exactly once a day, across restarts and replicas (the same way as alerts, see poller/deliver.ts):
 * - The day's words are composed from the day's balance snapshot (the daily snapshot job's, snapshots.ts; kept now
 *   through the same keepSnapshot when the day has none), and the day is claimed in the store (claimDigest: the
 *   insert is the claim). Whoever finds the day claimed posts the stored words, never new ones.
 * - The post's key (digestKey(day), in Slack message metadata) is written (`sending`) BEFORE the post. A post whose
 *   answer was lost (a timeout, a 5xx, a crash) is looked for in the channel at the next check, and recorded when
 *   found; it is posted again only once the first attempt is 2 minutes old and still not there (Slack may still be
 *   carrying it out), or when the channel cannot be read (a rare duplicate rather than no digest).
 * - The chart is claimed (`uploading`) before it is rendered and uploaded, so it is uploaded at most once; a chart
 *   that fails is recorded `failed`, said in the thread in words, and never takes the digest with it.
 */
import { randomUUID } from 'node:crypto';
import type { Block, SlackMessage } from '../../blocks/common.js';
import { errorFields, type Logger } from '../../logger.js';
import {
  describeSlackError,
  describeUploadFailure,
  isTransient,
  mayHaveHappened,
  needsAPerson,
  slackErrorCode,
} from '../../slack/errors.js';
import type { SlackGateway } from '../../slack/gateway.js';
import type { BalanceChartInput } from './balance-chart.js';
import { buildDigest } from './blocks.js';
import { chartFromDay, renderDigestChart } from './chart.js';
import { type ComposeDeps, composeDigest } from './compose.js';
import { type DailySnapshot, type DigestRecord, digestKey } from './records.js';
import { DIGEST_EVENT_TYPE, type DigestTime, formatDigestTime } from './rules.js';
import { digestDue, localDay } from './schedule.js';

/** What the digest asks of Slack: posts, the lookup of a lost one, a link, the chart's upload, joining its channel. */
export type DigestSlack = Pick<SlackGateway, 'post' | 'findPosted' | 'permalink' | 'uploadFile' | 'join'>;

/** When and where the daily digest goes (DIGEST_AT, DIGEST_CHANNEL). */
export interface DigestSchedule {
  at: DigestTime;
  channel: string;
}

export interface DigestServiceOptions extends ComposeDeps {
  slack: DigestSlack;
  now: () => Date;
  logger: Logger;
  /** Unset: no daily digest (DIGEST_AT unset); `/treasury digest` still answers. */
  schedule?: DigestSchedule | undefined;
  /** The time zone of the days when no schedule is set (ALERT_TIME_ZONE). */
  timeZone: string;
  /** Replicated deployments: only the replica holding the poller's lease posts the digest. */
  leadership?: { tryLead(): Promise<boolean> };
  /** Draws the chart (default: features/digest/balance-chart.ts); injectable to test a chart that cannot be drawn. */
  renderChart?: (input: BalanceChartInput) => Promise<Buffer>;
  /** Whether start() joins DIGEST_CHANNEL (default true); false when the alert poller joins it already. */
  joinAtStart?: boolean;
}

/** The daily digest. */
export interface DigestService {
  readonly schedule: DigestSchedule | undefined;
  /**
   * At start: joins DIGEST_CHANNEL (a no-op without a schedule). The checks run as the scheduler's "daily digest"
   * job (src/jobs), at start and every 30 s.
   */
  start(): void;
  /**
   * One check now (the job's run): when today's digest is due and not posted, this replica (if it polls) posts it.
   * One check at a time: a check asked while one runs gets the running one.
   */
  check(): Promise<void>;
  /** `/treasury digest`: the same words, composed now, for one person; says where the chart is. */
  show(): Promise<SlackMessage>;
  /**
   * Posts a fresh digest now, marked as posted on request, with its chart (the local workspace's panel). It claims
   * nothing: the day's scheduled digest still comes once, at its time. Resolves with what happened, in words.
   */
  postNow(): Promise<string>;
}

/** A post whose answer was lost is posted again only once its first attempt is this old and still not found. */
const DIGEST_SETTLE_AFTER_MS = 2 * 60_000;
/** When Slack cannot answer the lookup for this long after the first attempt, the digest is posted again. */
const DIGEST_LOOKUP_GIVE_UP_MS = 15 * 60_000;
/**
 * When the assets cannot be read at the digest's time, the next checks try again for this long; then the digest
 * goes out without balances, saying why (late rather than never; the alerts and swaps parts are complete).
 */
const BALANCE_READ_GRACE_MS = 15 * 60_000;
/** A chart left `uploading` this long was interrupted (a crash): recorded failed, never uploaded twice. */
const CHART_INTERRUPTED_AFTER_MS = 10 * 60_000;

/** What the lookup for a post whose answer was lost found. */
export type LookupOutcome = { ts: string } | 'absent' | 'unreadable' | 'failed';

/**
 * What to do with a digest post that may have been made (see the file's comment): record the message found, post
 * again, or wait for the next check. Pure.
 */
export function settleDigestPost(
  found: LookupOutcome,
  attemptAgeMs: number,
): { record: string } | 'post_again' | 'wait' {
  if (typeof found === 'object') return { record: found.ts };
  if (found === 'unreadable') return 'post_again';
  if (found === 'absent') return attemptAgeMs >= DIGEST_SETTLE_AFTER_MS ? 'post_again' : 'wait';
  return attemptAgeMs >= DIGEST_LOOKUP_GIVE_UP_MS ? 'post_again' : 'wait';
}

const CHART_NOTE = 'A 30-day chart of the balances follows in the thread.';

/** Builds the digest feature. */
export function createDigestService(options: DigestServiceOptions): DigestService {
  const { slack, logger, schedule } = options;
  const zone = schedule?.at.timeZone ?? options.timeZone;
  let inFlight: Promise<void> | undefined;
  let lookupRefusalLogged = false;
  // The first failed read of the assets per day (this process only): the digest waits BALANCE_READ_GRACE_MS for them.
  const readFailedSince = new Map<string, number>();

  const leading = async (): Promise<boolean> => !options.leadership || (await options.leadership.tryLead());

  /** Composes, keeps the snapshot and claims the day; undefined while the balances are worth waiting for. */
  async function claimDay(day: string, channel: string): Promise<DigestRecord | undefined> {
    const now = options.now();
    const composed = await composeDigest(options, day, now, 'scheduled', async (snapshot) => {
      const kept = await options.store.balances.keepSnapshot(snapshot);
      return kept.snapshot;
    });
    if (composed.readProblem !== undefined) {
      const since = readFailedSince.get(day) ?? now.getTime();
      readFailedSince.set(day, since);
      const waiting = now.getTime() - since < BALANCE_READ_GRACE_MS;
      logger.warn(
        waiting
          ? 'daily digest: could not read the balances; trying again at the next check'
          : 'daily digest: still cannot read the balances; posting the digest without them',
        { day, problem: composed.readProblem, error: errorFields(composed.readError) },
      );
      if (waiting) return undefined;
    }
    readFailedSince.delete(day);
    const message = buildDigest({ ...composed.view, ...(composed.snapshot ? { chartNote: CHART_NOTE } : {}) });
    const claim = await options.store.balances.claimDigest({
      day,
      channel,
      claimedAt: now.toISOString(),
      message: { text: message.text, blocks: message.blocks },
      // Without balances there is nothing new to draw: the chart is settled as not made.
      ...(composed.snapshot
        ? {}
        : { chart: { state: 'failed' as const, at: now.toISOString(), error: 'no balances to draw' } }),
    });
    if (claim.claimed) logger.info('daily digest: composed and claimed for the day', { day, channel });
    return claim.record;
  }

  /** Looks for a post whose answer was lost (its key in the channel's metadata). */
  async function lookFor(record: DigestRecord, attempt: NonNullable<DigestRecord['sending']>): Promise<LookupOutcome> {
    try {
      const ts = await slack.findPosted(
        record.channel,
        { eventType: DIGEST_EVENT_TYPE, key: attempt.key, since: new Date(attempt.since) },
        { wait: false },
      );
      return ts === undefined ? 'absent' : { ts };
    } catch (error) {
      if (isTransient(error) && !needsAPerson(error)) {
        logger.warn('daily digest: could not look for a digest whose answer was lost; looking again later', {
          day: record.day,
          reason: describeSlackError(error),
        });
        return 'failed';
      }
      if (!lookupRefusalLogged) {
        lookupRefusalLogged = true;
        logger.warn(
          'daily digest: cannot read DIGEST_CHANNEL to look for a digest whose answer was lost, so it is posted again (it may appear twice)',
          { channel: record.channel, reason: describeSlackError(error) },
        );
      }
      return 'unreadable';
    }
  }

  /** Slack accepted the digest at `ts`: recorded, and the words leave the store (they are in Slack now). */
  async function recordPosted(day: string, ts: string): Promise<DigestRecord | undefined> {
    const at = options.now().toISOString();
    const changed = await options.store.balances.changeDigest(day, (record) => {
      if (record.ts !== undefined) return;
      record.ts = ts;
      record.postedAt = at;
      delete record.sending;
      // Bounded state: 400 days of digests would otherwise keep 400 messages' blocks in the state file.
      record.message = { text: record.message.text, blocks: [] };
    });
    return changed?.record;
  }

  /** Posts the day's claimed words once; resolves with the record once Slack has the digest, else undefined. */
  async function post(record: DigestRecord): Promise<DigestRecord | undefined> {
    const now = options.now();
    let seen = record.sending;
    if (seen) {
      const found = await lookFor(record, seen);
      const decision = settleDigestPost(found, now.getTime() - Date.parse(seen.since));
      if (decision === 'wait') {
        if (found === 'absent')
          logger.info('daily digest: a digest whose answer was lost is not in the channel yet; looking again later', {
            day: record.day,
          });
        return undefined;
      }
      if (typeof decision === 'object') {
        logger.info('daily digest: a digest whose answer was lost is in the channel; recorded, not posted again', {
          day: record.day,
          ts: decision.record,
        });
        return recordPosted(record.day, decision.record);
      }
      if (found === 'failed')
        logger.warn(
          'daily digest: Slack could not answer the lookup for too long; posting again (it may appear twice)',
          {
            day: record.day,
          },
        );
    }
    if (!(await leading())) return undefined;
    // The attempt is written before the post, and only over what this replica read: two never both post.
    const attempt = { key: digestKey(record.day), since: now.toISOString() };
    const marked = await options.store.balances.changeDigest(record.day, (current) => {
      if (current.ts !== undefined || current.failed !== undefined) return false;
      if (current.sending?.since !== seen?.since) return false;
      current.sending = attempt;
      return true;
    });
    if (!marked?.result) return undefined;
    seen = attempt;
    try {
      const ts = await slack.post(
        record.channel,
        { text: record.message.text, blocks: record.message.blocks as Block[] },
        {
          wait: false,
          unfurl: false,
          metadata: { event_type: DIGEST_EVENT_TYPE, event_payload: { key: attempt.key } },
        },
      );
      logger.info('daily digest posted', { day: record.day, channel: record.channel });
      return await recordPosted(record.day, ts);
    } catch (error) {
      const reason = describeSlackError(error);
      if (mayHaveHappened(error)) {
        logger.warn("daily digest: Slack's answer to the digest was lost; it is looked for before any new attempt", {
          day: record.day,
          reason,
        });
      } else if (needsAPerson(error)) {
        logger.error('daily digest: Slack refuses to post in DIGEST_CHANNEL; today’s digest is not posted', {
          day: record.day,
          channel: record.channel,
          reason,
        });
        await options.store.balances.changeDigest(record.day, (current) => {
          delete current.sending;
          current.failed = { at: options.now().toISOString(), error: reason };
        });
      } else {
        logger.warn('daily digest: Slack did not take the digest; the next check tries again', {
          day: record.day,
          reason,
        });
        await options.store.balances.changeDigest(record.day, (current) => {
          if (current.sending?.since === attempt.since) delete current.sending;
        });
      }
      return undefined;
    }
  }

  /** Uploads the chart into the thread of `ts`; throws what went wrong. */
  async function uploadChart(day: string, channel: string, ts: string, snapshots: readonly DailySnapshot[]) {
    const chart = await renderDigestChart(day, snapshots, options.renderChart);
    return slack.uploadFile({
      channel,
      threadTs: ts,
      filename: `balances-${day}.png`,
      title: chart.title,
      bytes: chart.png,
      altText: chart.altText,
      initialComment: 'The last 30 days: the total USD balance and the largest assets.',
    });
  }

  /** Says in the thread, in words, that the chart could not be made (best effort: the digest itself stands). */
  async function sayChartFailed(channel: string, ts: string, day: string): Promise<void> {
    try {
      await slack.post(
        channel,
        { text: 'The 30-day chart could not be made this time. The digest above is complete without it.' },
        { threadTs: ts, wait: false },
      );
    } catch (error) {
      logger.warn('daily digest: could not say in the thread that the chart failed', {
        day,
        reason: describeSlackError(error),
      });
    }
  }

  /** The chart of a posted digest, at most once: claimed, drawn, uploaded into the thread, recorded. */
  async function chart(record: DigestRecord): Promise<void> {
    const now = options.now();
    if (
      record.chart?.state === 'uploading' &&
      now.getTime() - Date.parse(record.chart.at) >= CHART_INTERRUPTED_AFTER_MS
    ) {
      // A crash mid-upload: the chart may or may not be in the thread, so it is not uploaded again.
      await options.store.balances.changeDigest(record.day, (current) => {
        if (current.chart?.state === 'uploading')
          current.chart = { state: 'failed', at: now.toISOString(), error: 'interrupted while uploading' };
      });
      return;
    }
    if (record.chart !== undefined || record.ts === undefined) return;
    const claimed = await options.store.balances.changeDigest(record.day, (current) => {
      if (current.chart !== undefined) return false;
      current.chart = { state: 'uploading', at: now.toISOString() };
      return true;
    });
    if (!claimed?.result) return;
    const ts = record.ts;
    try {
      const snapshots = await options.store.balances.listSnapshots(chartFromDay(record.day));
      const { fileId } = await uploadChart(record.day, record.channel, ts, snapshots);
      await options.store.balances.changeDigest(record.day, (current) => {
        current.chart = { state: 'uploaded', at: options.now().toISOString(), fileId };
      });
      logger.info('daily digest: chart uploaded into its thread', { day: record.day });
    } catch (error) {
      const unknown = mayHaveHappened(error);
      const reason = describeUploadFailure(error);
      logger.warn('daily digest: the chart could not be uploaded; the digest stands without it', {
        day: record.day,
        reason,
        ...(unknown ? { outcome: 'unknown: it may be in the thread; not uploaded again' } : {}),
      });
      await options.store.balances.changeDigest(record.day, (current) => {
        current.chart = {
          state: 'failed',
          at: options.now().toISOString(),
          error: reason.slice(0, 200),
        };
      });
      // When Slack may have shared it after all, saying it failed could be wrong: the log says it instead.
      if (!unknown) await sayChartFailed(record.channel, ts, record.day);
    }
  }

  /**
   * Joins DIGEST_CHANNEL at start (public channels; `channels:join`): the chart is a file, and Slack shares files only
   * where the bot is a member (`chat:write.public` covers messages, not files). Never throws.
   */
  async function joinChannel(channel: string): Promise<void> {
    try {
      await slack.join(channel);
    } catch (error) {
      const code = slackErrorCode(error);
      if (code === 'already_in_channel') return;
      logger.warn(
        code === 'method_not_supported_for_channel_type'
          ? 'daily digest: DIGEST_CHANNEL is private: invite the bot there (/invite @bot), or the digest and its chart cannot be posted'
          : 'daily digest: could not join DIGEST_CHANNEL; the chart needs the bot in the channel (invite it)',
        { channel, reason: describeSlackError(error) },
      );
    }
  }

  async function checkOnce(): Promise<void> {
    if (!schedule) return;
    const now = options.now();
    const { day, due } = digestDue(now, schedule.at);
    if (!due) return;
    let record = await options.store.balances.getDigest(day);
    if (
      record?.failed ||
      (record?.ts !== undefined && record.chart !== undefined && record.chart.state !== 'uploading')
    )
      return;
    if (!(await leading())) return; // another replica polls, and posts the digest
    record ??= await claimDay(day, schedule.channel);
    if (!record || record.failed) return;
    if (record.ts === undefined) record = await post(record);
    if (record) await chart(record);
  }

  const check = (): Promise<void> => {
    // One check at a time: a slow upload must not let the next tick start a second post.
    if (inFlight) return inFlight;
    inFlight = checkOnce()
      .catch((error: unknown) => {
        logger.warn('daily digest: the check failed; the next one tries again', { error: errorFields(error) });
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  /** Where the day's chart is, for `/treasury digest` (mrkdwn). */
  async function whereIsTheChart(day: string): Promise<string> {
    if (!schedule) return 'No daily digest is set up (`DIGEST_AT`), so there is no chart.';
    const when = `at ${formatDigestTime(schedule.at)} in <#${schedule.channel}>`;
    const record = await options.store.balances.getDigest(day);
    if (record?.ts === undefined) return `The daily digest, with a 30-day chart in its thread, is posted ${when}.`;
    const link = await slack
      .permalink(record.channel, record.ts, { wait: false })
      .then((url) => ` (<${url}|open it>)`)
      .catch(() => '');
    return record.chart?.state === 'uploaded'
      ? `The 30-day chart is in the thread of today's digest in <#${record.channel}>${link}.`
      : `Today's digest is in <#${record.channel}>${link}; it has no chart today.`;
  }

  return {
    schedule,
    start() {
      if (schedule && options.joinAtStart !== false) void joinChannel(schedule.channel);
    },
    check,
    async show() {
      const now = options.now();
      const day = localDay(now, zone);
      const composed = await composeDigest(options, day, now, 'private');
      if (composed.readError !== undefined)
        logger.warn('/treasury digest: could not read the balances', { error: errorFields(composed.readError) });
      return buildDigest({ ...composed.view, chartNote: await whereIsTheChart(day) });
    },
    async postNow() {
      if (!schedule) throw new Error('No digest channel is set up (DIGEST_AT).');
      const now = options.now();
      const day = localDay(now, zone);
      const composed = await composeDigest(options, day, now, 'on_demand');
      const message = buildDigest({ ...composed.view, ...(composed.snapshot ? { chartNote: CHART_NOTE } : {}) });
      let ts: string;
      try {
        ts = await slack.post(schedule.channel, message, {
          unfurl: false,
          metadata: {
            event_type: DIGEST_EVENT_TYPE,
            event_payload: { key: `digest-on-request:${day}:${randomUUID()}` },
          },
        });
      } catch (error) {
        // Said to the person who asked; a post Slack may have made is not made again.
        throw new Error(
          mayHaveHappened(error)
            ? `Slack did not confirm the digest (${describeSlackError(error)}); look in the channel before asking again.`
            : `Slack did not take the digest: ${describeSlackError(error)}.`,
        );
      }
      if (!composed.snapshot) return `Posted a digest without balances (${composed.readProblem}), so without a chart.`;
      // Today's point is this reading; the days before are the snapshots the daily digests kept.
      const kept = await options.store.balances.listSnapshots(chartFromDay(day));
      const snapshots = [...kept.filter((snapshot) => snapshot.day !== day), composed.snapshot];
      try {
        await uploadChart(day, schedule.channel, ts, snapshots);
        return 'Posted a digest with its 30-day chart in the thread. The daily one still comes once, at its time.';
      } catch (error) {
        logger.warn('digest on request: the chart could not be uploaded', { reason: describeUploadFailure(error) });
        if (!mayHaveHappened(error)) await sayChartFailed(schedule.channel, ts, day);
        return 'Posted a digest; its chart could not be uploaded (see the log).';
      }
    },
  };
}
