/**
 * The Home tab: what each person sees when they open the app's Home, published with `views.publish`.
 * Built per person from the store (thresholds, open alerts, quotes) and the payment API (balances), and published
 * when they open it (`app_home_opened`), when they click in it (Refresh, Acknowledge), and after they act elsewhere
 * (approve or reject a quote, acknowledge, snooze or resolve an alert, set a threshold) when this process has
 * published their Home before.
 *
 * Races: each publish carries the hash Slack gave the view it replaces (from app_home_opened, or from our last
 * publish), so a publish built from older facts never overwrites a newer one: Slack answers `hash_conflict`, and
 * the view is then built again from fresh reads, once, and published without a hash (what it shows was read after
 * the other publish, so it is at least as new). Within a process, one person's publishes run one at a time and a
 * burst of requests collapses into one more run: a flurry of clicks costs two publishes, not one each (Slack rates
 * views.publish per person).
 */

import { compareText } from '../../kernel/compare.js';
import { errorFields, type Logger } from '../../logger.js';
import type { Asset, PaymentsClient } from '../../payments/index.js';
import { describeSlackError } from '../../slack/errors.js';
import type { SlackGateway } from '../../slack/gateway.js';
import type { GroupMembers } from '../access/rules.js';
import { refusalText } from '../access/rules.js';
import type { TreasuryAccessCheck } from '../access/service.js';
import { oldestFirst } from '../alerts/owned.js';
import type { BotRepositories, FreezeRepository } from '../repositories.js';
import type { RunwayReport, RunwayService } from '../runway/index.js';
import { type ApprovalPolicy, approversYetToAct, hasLapsed, policyOf } from '../swaps/decision.js';
import {
  buildHome,
  buildOutsiderHome,
  HOME_LISTED,
  type HomeAlert,
  type HomeRequest,
  type HomeView,
  type HomeWaitingQuote,
} from './blocks.js';

/** What the Home tab is built from; everything is injected. */
export interface HomeTabDeps {
  store: Pick<BotRepositories, 'alerts' | 'swapQuotes' | 'balances'> & {
    /** The freeze, shown on top (absent: never shown). */
    readonly freeze?: Pick<FreezeRepository, 'currentFreeze'>;
  };
  payments: Pick<PaymentsClient, 'listAssets'>;
  slack: Pick<SlackGateway, 'publishHome' | 'permalink'>;
  /** The approvers configured now: they decide quotes made before policies were fixed on quotes (see policyOf). */
  approvalPolicy: ApprovalPolicy;
  /** Members of approver groups (cached; usergroups.users.list): who of a group a quote is waiting for. */
  approverGroups?: { members(groupIds: readonly string[]): Promise<GroupMembers> };
  /** TREASURY_USERS: who may see data here (people, user groups, or `*`). */
  access: Pick<TreasuryAccessCheck, 'check'>;
  /** The alert poller is off (ALERT_CHANNEL unset): the balances part says no low-balance alert will come. */
  alertsOff?: boolean;
  /** Each asset's runway from the Home's own read of the assets (absent: no runway part). */
  runway?: Pick<RunwayService, 'forecast'>;
  now: () => Date;
  logger: Logger;
}

/** The Home tab, as the listeners (and app.ts) use it. Nothing here throws: a failure is logged. */
export interface HomeTab {
  /**
   * The person opened the Home tab (`app_home_opened`, tab `home`): publish it, against `shownHash`, the hash of
   * the view the event says they see (absent the first time).
   */
  opened(userId: string, shownHash?: string): Promise<void>;
  /**
   * Publish the person's Home now (the Refresh button, a click in the Home tab); `notice` is a line on top, once:
   * why their click changed nothing (a Home click has no channel to answer in privately).
   */
  publish(userId: string, options?: { notice?: string }): Promise<void>;
  /**
   * After the person acted elsewhere (a quote approved or rejected, an alert acknowledged, snoozed or resolved, a
   * threshold set): their Home is published again when this process has published one for them, so what they see
   * there does not stay behind. (Anyone else's is refreshed when they next open it.)
   */
  refreshHome(userId: string): Promise<void>;
}

/** The newest quotes read to find a person's own recent requests. */
const RECENT_QUOTES_READ = 200;
/** People whose Home hash this process remembers (the oldest are forgotten: their next publish has no hash). */
const REMEMBERED_HOMES = 5_000;
/** Message links kept (a message's permalink never changes). */
const REMEMBERED_LINKS = 2_000;

/** A map that forgets its oldest entries past `max`. */
function boundedSet<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}

export function createHomeTab(deps: HomeTabDeps): HomeTab {
  const { logger } = deps;
  const hashes = new Map<string, string>();
  const links = new Map<string, string>();
  const runs = new Map<string, { again: boolean; notice?: string; shownHash?: string; done: Promise<void> }>();

  /** A link to a message, from memory or Slack; undefined when Slack gives none (the line shows without it). */
  async function permalinkOf(channel: string, ts: string): Promise<string | undefined> {
    const key = `${channel}:${ts}`;
    const known = links.get(key);
    if (known !== undefined) return known;
    try {
      const permalink = await deps.slack.permalink(channel, ts, { wait: false });
      boundedSet(links, key, permalink, REMEMBERED_LINKS);
      return permalink;
    } catch (error) {
      logger.debug('home: no link to a message', { channel, reason: describeSlackError(error) });
      return undefined;
    }
  }

  async function readAssets(): Promise<Asset[] | undefined> {
    try {
      return await deps.payments.listAssets();
    } catch (error) {
      // The rest of the Home is still worth showing: it says the balances could not be read.
      logger.warn('home: could not read the balances for a Home tab', { error: errorFields(error) });
      return undefined;
    }
  }

  async function runwayOf(assets: readonly Asset[]): Promise<RunwayReport> {
    try {
      return await deps.runway!.forecast(assets);
    } catch (error) {
      logger.warn('home: could not forecast the runways for a Home tab', { error: errorFields(error) });
      return { ok: false, reason: 'the kept balance snapshots could not be read' };
    }
  }

  async function groupMembers(groupIds: readonly string[]): Promise<GroupMembers> {
    if (groupIds.length === 0) return new Map();
    if (!deps.approverGroups)
      return new Map(groupIds.map((id) => [id, { error: 'the bot cannot read user groups here' }]));
    return deps.approverGroups.members(groupIds);
  }

  /** The quotes waiting for `userId` to approve: they are an approver who has not acted (groups included). */
  async function waitingFor(userId: string, now: Date): Promise<{ shown: HomeWaitingQuote[]; total: number }> {
    const pending = (await deps.store.swapQuotes.listQuotesByStatus('pending')).filter(
      // Only a quote whose message is in Slack can be decided, and one past its expiry no longer can.
      (quote) => quote.messageTs !== undefined && !hasLapsed(quote, now),
    );
    const snapshots = pending.map((quote) => policyOf(quote, deps.approvalPolicy));
    const groups = await groupMembers([...new Set(snapshots.flatMap((snapshot) => snapshot.approvers.groupIds))]);
    const mine = pending
      .map((quote, i) => ({ quote, snapshot: snapshots[i]! }))
      .filter(({ quote, snapshot }) => approversYetToAct(quote, snapshot, groups).userIds.includes(userId))
      // The one expiring first on top: it is the one that needs doing first.
      .sort((a, b) => compareText(a.quote.expiresAt, b.quote.expiresAt));
    const shown = await Promise.all(
      mine.slice(0, HOME_LISTED.waiting).map(async (item) => {
        const permalink = await permalinkOf(item.quote.channelId, item.quote.messageTs!);
        return { ...item, ...(permalink ? { permalink } : {}) };
      }),
    );
    return { shown, total: mine.length };
  }

  async function requestsOf(userId: string): Promise<HomeRequest[]> {
    const own = (await deps.store.swapQuotes.listRecentQuotes(RECENT_QUOTES_READ))
      .filter((quote) => quote.requestedBy === userId)
      .slice(0, HOME_LISTED.requests);
    return Promise.all(
      own.map(async (quote) => {
        const permalink = quote.messageTs ? await permalinkOf(quote.channelId, quote.messageTs) : undefined;
        return { quote, ...(permalink ? { permalink } : {}) };
      }),
    );
  }

  async function openAlerts(): Promise<{ shown: HomeAlert[]; total: number }> {
    const open = Object.values((await deps.store.alerts.readAlerts()).owned ?? {})
      .filter((alert) => alert.life.state !== 'resolved')
      .sort(oldestFirst);
    const shown = await Promise.all(
      open.slice(0, HOME_LISTED.alerts).map(async (alert) => {
        const permalink = await permalinkOf(alert.channel, alert.ts);
        return { view: alert, postedAt: alert.postedAt, ...(permalink ? { permalink } : {}) };
      }),
    );
    return { shown, total: open.length };
  }

  /** The person's Home as it is now. */
  async function build(userId: string, notice: string | undefined): Promise<HomeView> {
    // Nobody outside TREASURY_USERS sees data: not even a read is made for them. Unknown membership (Slack could
    // not list a group) shows nothing either, and says why.
    const access = await deps.access.check(userId);
    if (!access.allowed)
      return access.why === 'unknown'
        ? buildOutsiderHome(refusalText(access), { unknown: true })
        : buildOutsiderHome(notice);
    const now = deps.now();
    const [freeze, assets, thresholds, alerts, waiting, requests] = await Promise.all([
      deps.store.freeze?.currentFreeze(now),
      readAssets(),
      deps.store.balances.listThresholds(),
      openAlerts(),
      waitingFor(userId, now),
      requestsOf(userId),
    ]);
    const runway = assets && deps.runway ? await runwayOf(assets) : undefined;
    return buildHome({
      userId,
      now,
      ...(notice ? { notice } : {}),
      assets,
      thresholds,
      alerts,
      waiting,
      requests,
      ...(deps.alertsOff ? { alertsOff: true } : {}),
      ...(freeze ? { freeze } : {}),
      ...(runway ? { runway } : {}),
    });
  }

  /** One publish: against the hash of the view it replaces; after a conflict, built again and published once more. */
  async function publishOnce(userId: string, notice: string | undefined, shownHash: string | undefined) {
    const hash = shownHash ?? hashes.get(userId);
    let result = await deps.slack.publishHome(userId, await build(userId, notice), hash ? { hash } : {});
    if ('conflict' in result) {
      logger.info('home: the Home tab changed while it was being built; building it again', { userId });
      // Read after the publish that won, so it shows at least as much as that one did.
      result = await deps.slack.publishHome(userId, await build(userId, notice));
    }
    if ('hash' in result && result.hash !== undefined) boundedSet(hashes, userId, result.hash, REMEMBERED_HOMES);
  }

  /** Runs one person's publishes one at a time; requests made meanwhile collapse into one more run. */
  function schedule(userId: string, request: { notice?: string; shownHash?: string }): Promise<void> {
    const running = runs.get(userId);
    if (running) {
      running.again = true;
      if (request.notice) running.notice = request.notice;
      if (request.shownHash) running.shownHash = request.shownHash;
      return running.done;
    }
    const run: { again: boolean; notice?: string; shownHash?: string; done: Promise<void> } = {
      again: false,
      ...request,
      done: Promise.resolve(),
    };
    run.done = (async () => {
      try {
        do {
          run.again = false;
          const { notice, shownHash } = run;
          delete run.notice;
          delete run.shownHash;
          try {
            await publishOnce(userId, notice, shownHash);
          } catch (error) {
            logger.warn('home: could not publish a Home tab; it is published again when the person opens it', {
              userId,
              reason: describeSlackError(error),
              error: errorFields(error),
            });
          }
        } while (run.again);
      } finally {
        runs.delete(userId);
      }
    })();
    runs.set(userId, run);
    return run.done;
  }

  return {
    opened: (userId, shownHash) => schedule(userId, shownHash ? { shownHash } : {}),
    publish: (userId, options = {}) => schedule(userId, options.notice ? { notice: options.notice } : {}),
    refreshHome: async (userId) => {
      if (hashes.has(userId) || runs.has(userId)) await schedule(userId, {});
    },
  };
}
