/**
 * Alerts people own: what a click or a submitted note does, and how Slack is brought up to date
 * afterwards. Every change is one atomic change of the store (both stores, any replica); the message is then
 * rewritten from the record and the change's line is posted in its thread. Whatever Slack does not take now is
 * owed in the record and sent by the polling replica at its next poll (`followUp`), never twice (thread lines are
 * claimed, keyed in their metadata and looked for after a lost answer) and never lost (a deleted message is
 * posted again and relinked).
 */

import type { SlackMessage } from '../../blocks/common.js';
import { errorFields, type Logger } from '../../logger.js';
import type { BotMetrics } from '../../metrics/index.js';
import { describeSlackError, mayHaveHappened, slackErrorCode, triggerRefused } from '../../slack/errors.js';
import type { SlackGateway } from '../../slack/gateway.js';
import type { ActOutcome, BotRepositories } from '../repositories.js';
import {
  buildAlertMessage,
  buildAlertRefusal,
  buildAlertThreadLine,
  buildOpenAlerts,
  buildResolveModal,
  RESOLVE_NOTE,
  type ResolveModalState,
} from './blocks.js';
import {
  acknowledgeAlert,
  type PersonAct,
  type ReminderPolicy,
  resolveAlertByPerson,
  snoozeAlert,
} from './lifecycle.js';
import { ALERT_EVENT_TYPE, findByRef, oldestFirst, slackIsCurrent, threadLineKey } from './owned.js';
import type { OwnedAlert, SendAttempt } from './records.js';
import { type AlertRoutes, type Mentionable, mentionText, routeFor } from './routing.js';
import type { SnoozeChoice } from './snooze.js';
import { snoozeUntil } from './snooze-until.js';

/** What alerts people own depend on; everything is injected. */
export interface AlertServiceOptions {
  store: Pick<BotRepositories, 'alerts'>;
  /** Counts the reminders posted (the metrics). */
  metrics?: Pick<BotMetrics, 'reminderSent'> | undefined;
  slack: Pick<SlackGateway, 'post' | 'update' | 'findPosted' | 'openView' | 'permalink'>;
  now: () => Date;
  logger: Logger;
  /** ALERT_CHANNEL: where a message whose channel is gone is posted again. */
  alertChannel: string | undefined;
  routes: AlertRoutes;
  oncall: readonly Mentionable[];
  timeZone: string;
  noteRequired: boolean;
  reminders: ReminderPolicy;
  /** A thread line or repost whose answer was lost is looked for once it is this old (POLL_RULES.uncertainSettleMs). */
  settleAfterMs: number;
}

/** What a click did, for the clicker: nothing to say (the message shows it), or a private notice. */
export interface ClickAnswer {
  notice?: string;
}

/** What a Resolve submission did: closed (done), errors to show under the note, or a refusal to show instead. */
export type SubmitAnswer = { done: true; key: string } | { errors: Record<string, string> } | { refused: string };

/** Alerts people own, as the listeners and the poller use them. */
export interface AlertService {
  acknowledge(ref: string, version: number, userId: string): Promise<ClickAnswer>;
  snooze(ref: string, version: number, userId: string, choice: SnoozeChoice): Promise<ClickAnswer>;
  /** Opens the Resolve modal with the click's trigger (its 3 seconds run from the click). */
  openResolve(click: {
    ref: string;
    version: number;
    userId: string;
    triggerId: string;
    channel: string;
  }): Promise<ClickAnswer>;
  /** The Resolve modal's submission: the note is checked, then the alert is resolved (or the refusal said). */
  submitResolve(state: ResolveModalState, userId: string, note: string): Promise<SubmitAnswer>;
  /** Brings Slack up to date for one alert: the message rewritten, owed thread lines posted, a deleted message reposted. */
  sync(key: string): Promise<void>;
  /** The polling replica, after each poll: reminders due are decided and queued, then every alert Slack is behind on is synced. */
  followUp(): Promise<void>;
  /** `/treasury alerts open`. */
  listOpen(): Promise<SlackMessage>;
  /** How many alerts are open (not resolved), for `/treasury alerts`. */
  openCount(): Promise<number>;
}

/** `/treasury alerts open` lists at most this many (oldest first), then how many more. */
const OPEN_LIST_CAP = 30;

/** Alerts synced by one follow-up at most; the rest at the next poll. */
const SYNCS_PER_FOLLOW_UP = 25;

const GONE = new Set(['message_not_found', 'channel_not_found', 'is_archived', 'cant_update_message']);

export function createAlertService(options: AlertServiceOptions): AlertService {
  const { store, slack, logger } = options;

  /** Where an alert goes and whom it mentions (routeFor); `fallback` is its channel when no route is set. */
  const routeOf = (alert: Pick<OwnedAlert, 'kind'>, fallback: string, oncall: readonly Mentionable[]) =>
    routeFor(alert.kind, options.routes, fallback, oncall);
  /** The message mentions its route's own mention only (the on-call are mentioned by reminders). */
  const mentionFor = (alert: OwnedAlert): string | undefined => {
    const [mention] = routeOf(alert, alert.channel, []).mentions;
    return mention ? mentionText(mention) : undefined;
  };
  const messageOf = (alert: OwnedAlert) => {
    const mention = mentionFor(alert);
    return buildAlertMessage(alert, options.now(), {
      timeZone: options.timeZone,
      ...(mention ? { mention } : {}),
      ...(alert.redirectedFrom ? { redirectedFrom: alert.redirectedFrom } : {}),
    });
  };

  /** After a person's act: the clicker hears nothing when it worked (the message says it), else why not. */
  async function afterAct(outcome: ActOutcome): Promise<ClickAnswer> {
    if (!outcome.found) return { notice: buildAlertRefusal({ reason: 'not_found' }).text };
    // The act is stored: a Slack or store hiccup while redrawing is logged and retried after the next poll, never
    // told to the clicker as a failure of what they did. (A refused act: their copy may be behind; redraw it too.)
    await guarded('bringing an alert message up to date', () => sync(outcome.alert.key));
    return outcome.ok ? {} : { notice: buildAlertRefusal(outcome.refusal).text };
  }

  const act = (userId: string, version: number): PersonAct => ({ userId, at: options.now(), seenVersion: version });

  /** A post whose answer may have been lost: found (recorded), absent long enough (post again), or wait. */
  async function settle(
    channel: string,
    attempt: SendAttempt,
    threadTs?: string,
  ): Promise<{ ts: string } | 'again' | 'wait'> {
    try {
      const ts = await slack.findPosted(
        channel,
        {
          eventType: ALERT_EVENT_TYPE,
          key: attempt.key,
          since: new Date(attempt.since),
          ...(threadTs ? { threadTs } : {}),
        },
        { wait: false },
      );
      if (ts !== undefined) return { ts };
      return options.now().getTime() - Date.parse(attempt.since) >= options.settleAfterMs ? 'again' : 'wait';
    } catch (error) {
      logger.warn('alerts: could not look for a thread line or repost whose answer was lost; trying later', {
        reason: describeSlackError(error),
      });
      return 'wait';
    }
  }

  /**
   * The message is gone from Slack: post it again (once: marked before the post, looked for after a lost answer).
   * True when the record now points at the new message.
   */
  async function repost(alert: OwnedAlert): Promise<boolean> {
    const { channel } = routeOf(alert, options.alertChannel ?? alert.channel, []);
    if (alert.reposting) {
      const found = await settle(channel, alert.reposting);
      if (found === 'wait') return false;
      if (found !== 'again') {
        await store.alerts.recordReposted(
          alert.key,
          { channel, ts: found.ts, version: alert.life.version },
          options.now(),
        );
        return true;
      }
    }
    const attempt = { key: `repost:${alert.nextSeq}:${alert.key}`, since: options.now().toISOString() };
    const seen = { ts: alert.ts, ...(alert.reposting ? { attempt: alert.reposting } : {}) };
    if (!(await store.alerts.recordReposting(alert.key, attempt, seen))) {
      // Someone else found it gone too (a click on another replica, the poll): they post it; once they have, the
      // lines owed may follow it there.
      const now = (await store.alerts.readAlerts()).owned?.[alert.key];
      return now !== undefined && now.ts !== alert.ts && now.reposting === undefined;
    }
    try {
      const ts = await slack.post(channel, messageOf(alert), {
        wait: false,
        unfurl: false,
        metadata: { event_type: ALERT_EVENT_TYPE, event_payload: { key: attempt.key } },
      });
      await store.alerts.recordReposted(alert.key, { channel, ts, version: alert.life.version }, options.now());
      logger.warn("alerts: an alert's message was gone from Slack; posted it again", { key: alert.key, channel });
      return true;
    } catch (error) {
      if (!mayHaveHappened(error)) await store.alerts.recordReposting(alert.key, undefined);
      logger.warn('alerts: could not post a deleted alert again; trying at the next poll', {
        key: alert.key,
        reason: describeSlackError(error),
      });
      return false;
    }
  }

  /**
   * Posts the alert again; once it is relinked, the lines still owed (the change that found the message gone, and
   * why it is new) go to the new message's thread now, not at the next poll. At most one repost per sync.
   */
  async function repostAndContinue(alert: OwnedAlert, afterRepost: boolean): Promise<void> {
    if ((await repost(alert)) && !afterRepost) await sync(alert.key, true);
  }

  async function sync(key: string, afterRepost = false): Promise<void> {
    const claim = await store.alerts.claimAlertSync(key, options.now());
    if (!claim) return;
    let alert = claim.alert;
    if (alert.reposting) {
      // The lines wait for the new message (they would go to a thread that is gone).
      for (const line of claim.lines) await store.alerts.recordThreadLine(key, line.seq, 'refused');
      await repostAndContinue(alert, afterRepost);
      return;
    }
    // The message first (people look at it), as many times as the record moved on meanwhile (bounded).
    for (let round = 0; round < 3 && alert.shown < alert.life.version; round += 1) {
      const version = alert.life.version;
      try {
        await slack.update(alert.channel, alert.ts, messageOf(alert));
      } catch (error) {
        if (GONE.has(slackErrorCode(error) ?? '')) {
          // Its thread is gone with it: the lines claimed go to the new message's thread instead.
          for (const line of claim.lines) await store.alerts.recordThreadLine(key, line.seq, 'refused');
          await repostAndContinue(alert, afterRepost);
          return;
        }
        logger.warn("alerts: could not rewrite an alert's message; trying at the next poll", {
          key,
          reason: describeSlackError(error),
        });
        break;
      }
      alert = (await store.alerts.recordShown(key, version)) ?? alert;
    }
    // Thread lines owed from before, whose answer was lost: found, or posted again once Slack had time.
    for (const line of alert.thread) {
      if (!line.sending || claim.lines.some((claimed) => claimed.seq === line.seq)) continue;
      const found = await settle(alert.channel, line.sending, alert.ts);
      if (found === 'wait') break;
      await store.alerts.recordThreadLine(key, line.seq, found === 'again' ? 'refused' : 'posted');
    }
    for (const [index, line] of claim.lines.entries()) {
      try {
        await slack.post(alert.channel, buildAlertThreadLine(line.event, options.now()), {
          threadTs: alert.ts,
          unfurl: false,
          metadata: { event_type: ALERT_EVENT_TYPE, event_payload: { key: threadLineKey(key, line.seq) } },
        });
        await store.alerts.recordThreadLine(key, line.seq, 'posted');
        if (line.event.type.startsWith('reminder_')) options.metrics?.reminderSent(alert.kind);
      } catch (error) {
        // A refusal means it is not there: it may be claimed again. An unknown outcome stays marked (looked for later).
        const unknown = mayHaveHappened(error);
        if (!unknown) await store.alerts.recordThreadLine(key, line.seq, 'refused');
        // The lines claimed after it were never sent: released, so the next sync posts them without looking first.
        for (const later of claim.lines.slice(index + 1))
          await store.alerts.recordThreadLine(key, later.seq, 'refused');
        const gone = GONE.has(slackErrorCode(error) ?? '');
        logger.warn('alerts: a line of an alert thread did not go out; trying at the next poll', {
          key,
          reason: describeSlackError(error),
          ...(unknown ? { outcome: 'unknown: looked for before it is posted again' } : {}),
        });
        // A thread whose message is gone: repost the message, the lines follow it there.
        if (gone) await repostAndContinue(alert, afterRepost);
        break;
      }
    }
  }

  async function guarded(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      logger.error(`alerts: ${what} failed`, { error: errorFields(error) });
    }
  }

  return {
    async acknowledge(ref, version, userId) {
      return afterAct(
        await store.alerts.actOnAlert(ref, (alert) => acknowledgeAlert(alert.life, act(userId, version))),
      );
    },

    async snooze(ref, version, userId, choice) {
      const until = snoozeUntil(choice, options.now(), options.timeZone);
      return afterAct(
        await store.alerts.actOnAlert(ref, (alert) => snoozeAlert(alert.life, act(userId, version), until)),
      );
    },

    async openResolve(click) {
      const alert = findByRef((await store.alerts.readAlerts()).owned, click.ref);
      if (!alert) return { notice: buildAlertRefusal({ reason: 'not_found' }).text };
      if (alert.life.state === 'resolved')
        return { notice: buildAlertRefusal({ ok: false, reason: 'already_resolved', current: alert.life }).text };
      if (alert.life.version !== click.version) {
        await sync(alert.key);
        return { notice: buildAlertRefusal({ ok: false, reason: 'outdated', current: alert.life }).text };
      }
      const modal = buildResolveModal(
        alert,
        { ref: click.ref, version: click.version, channel: click.channel },
        options.noteRequired,
        options.now(),
      );
      try {
        await slack.openView(click.triggerId, modal);
        return {};
      } catch (error) {
        logger.warn('alerts: could not open the Resolve dialog', { reason: describeSlackError(error) });
        return {
          notice: triggerRefused(error)
            ? 'Slack did not open the Resolve dialog in time (it allows 3 seconds after a click). Please click Resolve again.'
            : 'Slack did not open the Resolve dialog. Please click Resolve again in a moment.',
        };
      }
    },

    async submitResolve(state, userId, note) {
      // The click was checked against its message's version when the dialog opened. Meanwhile someone may have
      // acknowledged or snoozed it: the person who wrote a note still resolves it; only "already resolved" refuses.
      const outcome = await store.alerts.actOnAlert(state.ref, (alert) =>
        resolveAlertByPerson(alert.life, act(userId, alert.life.version), note, options.noteRequired),
      );
      if (!outcome.found) return { refused: buildAlertRefusal({ reason: 'not_found' }).text };
      if (!outcome.ok) {
        if (outcome.refusal.reason === 'note_required')
          return { errors: { [RESOLVE_NOTE.blockId]: buildAlertRefusal(outcome.refusal).text } };
        return { refused: buildAlertRefusal(outcome.refusal).text };
      }
      return { done: true, key: outcome.alert.key };
    },

    sync: (key) => guarded('bringing an alert message up to date', () => sync(key)),

    async followUp() {
      await guarded('deciding reminders', async () => {
        const queued = await store.alerts.queueDueReminders(options.now(), {
          policy: () => options.reminders,
          mentions: (alert) => routeOf(alert, alert.channel, options.oncall).mentions.map(mentionText),
        });
        if (queued.length > 0) logger.info('alerts: reminders queued', { alerts: queued.length });
      });
      const owned = (await store.alerts.readAlerts()).owned ?? {};
      const behind = Object.values(owned)
        .filter((alert) => !slackIsCurrent(alert))
        .slice(0, SYNCS_PER_FOLLOW_UP);
      for (const alert of behind) await guarded('bringing an alert message up to date', () => sync(alert.key));
    },

    async listOpen() {
      const open = Object.values((await store.alerts.readAlerts()).owned ?? {})
        .filter((alert) => alert.life.state !== 'resolved')
        .sort(oldestFirst);
      // One chat.getPermalink per line shown: the list shows the oldest OPEN_LIST_CAP, then says how many more.
      const lines = await Promise.all(
        open.slice(0, OPEN_LIST_CAP).map(async (alert) => {
          const permalink = await slack.permalink(alert.channel, alert.ts).catch((error: unknown) => {
            logger.warn('alerts: no link to an alert message', { key: alert.key, reason: describeSlackError(error) });
            return undefined;
          });
          return { view: alert, postedAt: alert.postedAt, ...(permalink ? { permalink } : {}) };
        }),
      );
      return buildOpenAlerts(lines, open.length, options.now());
    },

    async openCount() {
      return Object.values((await store.alerts.readAlerts()).owned ?? {}).filter(
        (alert) => alert.life.state !== 'resolved',
      ).length;
    },
  };
}
