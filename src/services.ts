/**
 * The feature services, built from the configuration and the clients: what the listeners and the jobs are given. Nothing
 * here starts; the Slack app starts listening and the scheduler starts the jobs (src/app.ts).
 */
import { usdLabel } from './blocks/format.js';
import type { Config } from './config.js';
import { createTreasuryAccess, isNamedOrGroupMember, type TreasuryAccessCheck } from './features/access/service.js';
import { type AlertService, createAlertService } from './features/alerts/index.js';
import { POLL_RULES } from './features/alerts/poller/index.js';
import { type AuditExport, createAuditExport } from './features/audit/index.js';
import {
  type BalanceSnapshots,
  createBalanceSnapshots,
  createDigestService,
  type DigestService,
  snapshotTime,
} from './features/digest/index.js';
import { formatDigestTime } from './features/digest/rules.js';
import { localDay } from './features/digest/schedule.js';
import { createFreezeService, type FreezeService } from './features/freeze/service.js';
import { createHomeTab, type HomeTab } from './features/home/index.js';
import { createInvoiceFollower, type InvoiceFollower } from './features/invoices/index.js';
import { createPayoutService, type PayoutService } from './features/payouts/service.js';
import type { BotRepositories, FormSubmissionRepository } from './features/repositories.js';
import { createRunwayService, type RunwayService } from './features/runway/index.js';
import { createSecondFactorService, type SecondFactorService } from './features/second-factor/service.js';
import {
  type ApproverGroups,
  createApproverGroups,
  createSwapService,
  type FollowPolicy,
  type QuoteMessenger,
  type SwapService,
} from './features/swaps/index.js';
import { createThresholdService, type ThresholdService } from './features/thresholds/service.js';
import type { Logger } from './logger.js';
import type { BotMetrics } from './metrics/index.js';
import type { PaymentsClient } from './payments/index.js';
import type { SlackGateway } from './slack/gateway.js';

/** What the features are built from. */
export interface FeatureServiceOptions {
  config: Config;
  payments: PaymentsClient;
  store: BotRepositories;
  slack: SlackGateway;
  now: () => Date;
  logger: Logger;
  /** Replicated deployments: the poller's lease (the digest and the invoices' follow-up ask it before they post). */
  lease?: { tryLead(): Promise<boolean> };
  /** How swaps are followed after approval; default every 5 s for up to 30 minutes. */
  swapFollow?: FollowPolicy;
  /** Quotes, approvals, swaps created and step-up failures (the metrics). */
  metrics?: BotMetrics;
}

/** Every feature of the bot. */
export interface FeatureServices {
  groups: ApproverGroups;
  access: TreasuryAccessCheck;
  swaps: SwapService;
  thresholds: ThresholdService;
  /** Alerts people own; undefined when the poller is off (ALERT_CHANNEL unset). */
  alertActions: AlertService | undefined;
  /** Invoices that report back; undefined when the poller is off (nothing would follow them). */
  invoices: InvoiceFollower | undefined;
  home: HomeTab;
  digest: DigestService;
  /** The daily balance snapshot (its job in src/jobs): what the runway, the digest and its chart read. */
  snapshots: BalanceSnapshots;
  payouts: PayoutService;
  freeze: FreezeService;
  audit: AuditExport;
  /** The TOTP second factor: `/treasury 2fa`, and the code an approval above SWAP_STEP_UP_USD asks for. */
  secondFactor: SecondFactorService;
  /** Runway: `/treasury runway`, the digest's and the Home tab's runway, the `runway_low` alert's forecast. */
  runway: RunwayService;
  /** Forms' submissions, claimed once across replicas (the store's `formSubmissions`). */
  formSubmissions: FormSubmissionRepository;
}

/** The channels the alert poller joins at start: ALERT_CHANNEL and the routed kinds' channels, once each. */
export function alertChannels(config: Config): string[] {
  if (!config.alertChannel) return [];
  return [config.alertChannel, ...Object.values(config.alertRoutes).map((route) => route.channel)].filter(
    (channel, index, all) => all.indexOf(channel) === index,
  );
}

/** Builds every feature; the alert poller is built with its job (src/jobs). */
export function createFeatureServices(options: FeatureServiceOptions): FeatureServices {
  const { config, payments, store, slack, now, logger, lease } = options;
  // Quote messages may wait and retry a little: a person is looking at them.
  const messenger: QuoteMessenger = {
    post: (channel, message) => slack.post(channel, message),
    update: (channel, ts, message) => slack.update(channel, ts, message),
    reply: async (channel, threadTs, message) => {
      await slack.post(channel, message, { threadTs });
    },
  };
  // Members of user groups (SWAP_APPROVERS, TREASURY_ADMINS S… ids), from Slack, at most five minutes old.
  const groups = createApproverGroups({ slack, now, logger });
  // TREASURY_USERS (people, groups through the same cache, or `*`).
  const access = createTreasuryAccess({ treasuryUsers: config.treasuryUsers, admins: config.treasuryAdmins, groups });
  const swaps = createSwapService({
    payments,
    metrics: options.metrics,
    store,
    messenger,
    logger,
    now,
    policy: {
      tiers: config.swapPolicyTiers,
      approvers: config.swapApprovers,
      allowSelfApproval: config.allowSelfApproval,
      maxUsdCents: config.swapMaxUsdCents,
      dailyLimitUsdCents: config.swapDailyLimitUsdCents,
    },
    approverGroups: groups,
    follow: options.swapFollow ?? { intervalMs: 5_000, maxDurationMs: 30 * 60_000 },
    // SWAP_STEP_UP_USD: approvals of quotes worth this or more (or of unknown value) need a code.
    stepUp: {
      thresholdCents: config.swapStepUpUsdCents,
      slack,
      // The second factor service is built below (it needs the admins); it is only called on a click, after that.
      codes: {
        readiness: (userId) => secondFactor.readiness(userId),
        verify: async (userId, code) => {
          const verdict = await secondFactor.verify(userId, code);
          if (
            !verdict.ok &&
            (verdict.reason === 'wrong' || verdict.reason === 'replayed' || verdict.reason === 'locked')
          )
            options.metrics?.stepUpFailed(verdict.reason);
          return verdict;
        },
      },
    },
  });

  // Balance thresholds: set by TREASURY_ADMINS (people and groups, listed through the same cache as approvers).
  const thresholds = createThresholdService({
    payments,
    store,
    now,
    logger,
    isAdmin: access.isAdmin,
    pollerOn: config.alertChannel !== undefined,
  });

  // Alerts people own: clicks on any replica, reminders and owed Slack work from the polling one (followUp).
  const alertActions = config.alertChannel
    ? createAlertService({
        metrics: options.metrics,
        store,
        slack,
        now,
        logger,
        alertChannel: config.alertChannel,
        routes: config.alertRoutes,
        oncall: config.alertOnCall,
        timeZone: config.alertTimeZone,
        noteRequired: config.alertResolveNoteRequired,
        reminders: { remindAfterMs: config.alertRemindAfterMs, staleAfterMs: config.alertStaleAfterMs },
        settleAfterMs: POLL_RULES.uncertainSettleMs,
      })
    : undefined;

  // Invoices that report back: followed while the poller runs, by the polling replica after each poll.
  const invoices = config.alertChannel
    ? createInvoiceFollower({
        store,
        payments,
        slack,
        now,
        logger,
        max: config.invoiceFollowMax,
        ...(lease ? { stillLeading: () => lease.tryLead() } : {}),
      })
    : undefined;

  // The daily balance snapshot: at DIGEST_AT when set, else 00:05 in ALERT_TIME_ZONE; taken by the lease holder.
  const snapshotAt = snapshotTime(config.digestAt, config.alertTimeZone);
  const snapshots = createBalanceSnapshots({
    store,
    payments,
    now,
    logger,
    at: snapshotAt,
    ...(lease ? { leadership: lease } : {}),
  });
  // Runway: measured on the daily snapshots (their days are in the snapshot's zone), gas charges for the donor.
  const runway = createRunwayService({
    store,
    payments,
    now,
    logger,
    today: (at) => localDay(at, snapshotAt.timeZone),
    snapshotsAt: formatDigestTime(snapshotAt),
    alertDays: config.runwayAlertDays,
  });
  // Each person's Home tab: balances and thresholds, open alerts, quotes waiting for them, their requests.
  const home = createHomeTab({
    store,
    payments,
    slack,
    approvalPolicy: { approvers: config.swapApprovers, allowSelfApproval: config.allowSelfApproval },
    approverGroups: groups,
    access,
    alertsOff: config.alertChannel === undefined,
    runway,
    now,
    logger,
  });
  // The daily digest: from the replica holding the poller's lease, at DIGEST_AT, once a day; its chart in its thread.
  const digest = createDigestService({
    store,
    payments,
    slack,
    now,
    logger,
    schedule:
      config.digestAt && config.digestChannel ? { at: config.digestAt, channel: config.digestChannel } : undefined,
    timeZone: config.alertTimeZone,
    dailyLimitUsdCents: config.swapDailyLimitUsdCents,
    runway,
    ...(lease ? { leadership: lease } : {}),
    // The poller joins its channels at start; joining again only makes Slack answer already_in_channel.
    joinAtStart: !(config.digestChannel !== undefined && alertChannels(config).includes(config.digestChannel)),
  });
  // Payout containers: proposed by a command, created once after the requester confirms.
  const payouts = createPayoutService({ payments, store, now, logger });
  // The audit trail as a CSV file for TREASURY_ADMINS, sent to the requester's DM with the bot.
  const audit = createAuditExport({ store, slack, now, logger, isAdmin: (userId) => access.isAdmin(userId) });
  // The freeze: pulled by an approver or an admin, lifted by FREEZE_UNFREEZE_QUORUM admins, announced in ALERT_CHANNEL.
  const freeze = createFreezeService({
    store,
    slack,
    now,
    logger,
    alertChannel: config.alertChannel,
    quorum: config.freezeUnfreezeQuorum,
    rolesOf: async (userId) => ({
      approver: await isNamedOrGroupMember(config.swapApprovers, userId, groups),
      admin: await access.isAdmin(userId),
    }),
    afterChange: () => swaps.refreshWaiting(),
  });
  // The second factor: secrets sealed with TOTP_ENCRYPTION_KEY; TREASURY_ADMINS (groups included) reset enrolments.
  const secondFactor = createSecondFactorService({
    store,
    key: config.totpEncryptionKey,
    slack,
    logger,
    now,
    alertChannel: config.alertChannel,
    stepUpLabel: config.swapStepUpUsdCents === undefined ? undefined : usdLabel(config.swapStepUpUsdCents),
    isAdmin: (userId) => access.isAdmin(userId),
  });
  return {
    ...{ groups, access, swaps, thresholds, alertActions, invoices, home, digest, payouts, freeze, audit },
    secondFactor,
    runway,
    snapshots,
    formSubmissions: store.formSubmissions,
  };
}
