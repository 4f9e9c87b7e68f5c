import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseEnv } from 'node:util';
import { validate as isValidCronExpression } from 'node-cron';
import { z } from 'zod';
import { EVERYONE_MEANS } from './features/access/rules.js';
import { type AlertRoutes, type Mentionable, parseAlertRoutes, parseOnCall } from './features/alerts/routing.js';
import type { DigestTime } from './features/digest/rules.js';
import { DEFAULT_UNFREEZE_QUORUM } from './features/freeze/rules.js';
import { parseRunwayDays, type Rational } from './features/runway/rules.js';
import { type PolicyTier, parseSwapPolicy, parseUsdLimit } from './features/swaps/policy.js';
import { parseDuration } from './kernel/durations.js';
import { CodedError } from './kernel/errors.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormatName, type LogLevelName } from './logger.js';

/** The bot's whole configuration, parsed and validated from the environment. */
export interface Config {
  paymentsApiUrl: string;
  paymentsApiKey: string;
  slackBotToken: string;
  /** Set: Socket Mode. Unset: HTTP mode on `port`. */
  slackAppToken: string | undefined;
  slackSigningSecret: string | undefined;
  slackApiUrl: string | undefined;
  port: number;
  /** Interface the HTTP server binds (HTTP mode, and /healthz in both modes' HTTP server). */
  host: string;
  /** Unset: the alert poller is off. */
  alertChannel: string | undefined;
  pollSchedule: string;
  alertLookbackMs: number;
  /** ALERT_ROUTES: the kinds of alert that go to a channel of their own (and whom they mention there). */
  alertRoutes: AlertRoutes;
  /** ALERT_ONCALL: whom reminders mention for alerts whose route names no one. */
  alertOnCall: Mentionable[];
  /** IANA time zone (canonical, e.g. `Europe/Berlin`) of "until tomorrow 09:00" and the times people read. */
  alertTimeZone: string;
  /** Whether resolving an alert asks for a note (ALERT_RESOLVE_NOTE=required, the default). */
  alertResolveNoteRequired: boolean;
  /** An open alert nobody acknowledged gets a reminder after this long, and a second after twice this. */
  alertRemindAfterMs: number;
  /** An acknowledged alert still unresolved after this long gets one reminder to whoever acknowledged it. */
  alertStaleAfterMs: number;
  /** How long a row may stay pending before it gets a "stuck" alert, per kind of row. */
  stuckAfterMs: StuckAfterMs;
  /** DIGEST_AT: when the daily digest is posted (a wall-clock time in a time zone); unset: no daily digest. */
  digestAt: DigestTime | undefined;
  /** DIGEST_CHANNEL (default ALERT_CHANNEL): where the daily digest goes; set whenever digestAt is. */
  digestChannel: string | undefined;
  /** INVOICE_FOLLOW_MAX: open invoices followed at most; over it the oldest is dropped, its creator told. */
  invoiceFollowMax: number;
  /** FREEZE_UNFREEZE_QUORUM: distinct admins whose Unfreeze lifts a freeze (default 2; the freezer may count once). */
  freezeUnfreezeQuorum: number;
  /** SWAP_APPROVERS: user ids (U…/W…) and user group ids (S…) whose members approve. */
  swapApprovers: string[];
  allowSelfApproval: boolean;
  /** SWAP_POLICY: how many distinct approvers each USD amount needs, from each threshold up. */
  swapPolicyTiers: PolicyTier[];
  /** SWAP_MAX_USD in cents: the most one swap may be worth; unset: no maximum. */
  swapMaxUsdCents: bigint | undefined;
  /** SWAP_DAILY_LIMIT_USD in cents: what swaps out of one asset may add up to in any 24 hours; unset: no limit. */
  swapDailyLimitUsdCents: bigint | undefined;
  /**
   * SWAP_STEP_UP_USD in cents: approving a quote worth this much or more (or of unknown value) needs a fresh code
   * from the approver's authenticator app; unset: no second factor is asked.
   */
  swapStepUpUsdCents: bigint | undefined;
  /** TOTP_ENCRYPTION_KEY: the 32-byte AES-256-GCM key the authenticator secrets are encrypted with at rest. */
  totpEncryptionKey: Buffer | undefined;
  /**
   * TREASURY_USERS: who may use the bot: user ids, user group ids (S…), or `['*']` (EVERYONE_MEANS).
   * Required in production; elsewhere unset means `['*']` (`treasuryUsersDefaulted` says so).
   */
  treasuryUsers: string[];
  treasuryUsersDefaulted: boolean;
  /**
   * TREASURY_ADMINS: user ids and user group ids (S…) who may set and remove balance thresholds; unset: the
   * swap approvers (`treasuryAdminsDefaulted` says so).
   */
  treasuryAdmins: string[];
  treasuryAdminsDefaulted: boolean;
  dataFile: string;
  /** Set: the PostgreSQL store (replicas share it); unset: the lowdb file at `dataFile`. */
  databaseUrl: string | undefined;
  /** This process's name among replicas (`/treasury alerts` shows which one polls). */
  replicaName: string;
  logLevel: LogLevelName;
  /** HEARTBEAT_URL: a GET after every successful poll by the lease holder (dead-man's switch); unset: none. */
  heartbeatUrl: string | undefined;
  /** `text`: readable lines; `json`: one JSON object per line (LOG_FORMAT; json by default in production). */
  logFormat: LogFormatName;
  /** METRICS_PORT: GET /metrics on a port of its own; unset: beside /healthz on `port`. */
  metricsPort?: number | undefined;
  /** METRICS_TOKEN: a scrape must carry `Authorization: Bearer <token>`; unset: /metrics is open. */
  metricsToken?: string | undefined;
  /** RUNWAY_ALERT_DAYS: a `runway_low` alert when an asset's runway falls below this many days; unset: none. */
  runwayAlertDays?: { text: string; days: Rational } | undefined;
}

/** STUCK_*_AFTER: how long a withdrawal, a payout task or a gas top-up may be pending before it counts as stuck. */
export interface StuckAfterMs {
  withdrawal: number;
  task: number;
  gas: number;
}

/** Thrown when the environment is unusable; `problems` holds one readable line per variable. */
export class ConfigError extends CodedError {
  declare readonly code: 'config_invalid';
  constructor(readonly problems: string[]) {
    super('config_invalid', `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/**
 * TREASURY_USERS: Slack user ids (U…/W…) and user group ids (S…), comma-separated, or `*` alone (everyone in the
 * installing organisation, said explicitly: EVERYONE_MEANS). Unset or empty: undefined (loadConfig decides what that means).
 */
const treasuryUserList = optionalText.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const ids = v
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.includes('*')) {
    if (ids.length > 1)
      ctx.addIssue({
        code: 'custom',
        message: `\`*\` (${EVERYONE_MEANS}) stands alone; remove the other ids, or remove the \`*\``,
      });
    return ['*'];
  }
  for (const id of ids)
    if (!/^[UW][A-Z0-9]{2,}$/.test(id) && !/^S[A-Z0-9]{2,}$/.test(id))
      ctx.addIssue({
        code: 'custom',
        message: `"${id}" is not a Slack user id (U012ABCDEF) or user group id (S012ABCDEF), nor \`*\`; names and @mentions are not accepted`,
      });
  return ids.length > 0 ? ids : undefined;
});

/** A duration variable (`20s`, `15m`, `2h`, `1d`) with its default, in milliseconds. */
const duration = (fallback: string) =>
  optionalText.transform((v, ctx) => {
    const ms = parseDuration(v ?? fallback);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected a duration such as 30m, 24h or 7d' });
      return z.NEVER;
    }
    return ms;
  });

/**
 * A variable read by one of the domain's parsers, which name the variable in each problem themselves: each
 * problem becomes one issue (the variable's name is put back in front by loadConfig).
 */
const parsedBy = <R extends { problems: string[] }>(variable: string, parse: (text: string) => R) =>
  optionalText.transform((v, ctx): Omit<R, 'problems'> => {
    const { problems, ...parsed } = parse(v ?? '');
    for (const problem of problems)
      ctx.addIssue({ code: 'custom', message: problem.replace(new RegExp(`^${variable}: `), '') });
    return problems.length > 0 ? z.NEVER : parsed;
  });

const httpUrl = (what: string) =>
  z
    .string({ error: `required: ${what}` })
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, `expected an http(s) URL: ${what}`);

/** A comma-separated list of Slack user ids (U…/W…) and user group ids (S…): each bad one is its own problem. */
const usersAndGroups = optionalText.transform((v, ctx) => {
  const ids = (v ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  for (const id of ids)
    if (!/^[UW][A-Z0-9]{2,}$/.test(id) && !/^S[A-Z0-9]{2,}$/.test(id))
      ctx.addIssue({
        code: 'custom',
        message: `"${id}" is not a Slack user id (U012ABCDEF) or user group id (S012ABCDEF); names and @mentions are not accepted`,
      });
  return ids;
});

const EnvSchema = z.object({
  PAYMENTS_API_URL: httpUrl('the payment API base URL, e.g. https://api.example.com'),
  PAYMENTS_API_KEY: z
    .string({ error: 'required: the merchant API key (sent as the apiKey header)' })
    .trim()
    .min(1, 'required: the merchant API key (sent as the apiKey header)'),
  SLACK_BOT_TOKEN: z
    .string({ error: 'required: the bot token, starting with xoxb-' })
    .trim()
    .regex(/^xoxb-/, 'expected a bot token starting with xoxb-'),
  SLACK_APP_TOKEN: optionalText.refine((v) => v === undefined || v.startsWith('xapp-'), {
    message: 'expected an app-level token starting with xapp- (or leave it unset for HTTP mode)',
  }),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_API_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), {
    message: 'expected an http(s) URL such as https://slack.com/api/',
  }),
  PORT: optionalText.transform((v, ctx) => {
    if (v === undefined) return 3000;
    const port = /^\d{1,5}$/.test(v) ? Number(v) : NaN;
    if (!(port >= 0 && port <= 65535)) {
      ctx.addIssue({ code: 'custom', message: 'expected a TCP port number from 1 to 65535 (0 picks a free one)' });
      return z.NEVER;
    }
    return port;
  }),
  HOST: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9.:-]+$/.test(v), {
    message: 'expected an interface address such as 127.0.0.1, 0.0.0.0 or ::',
  }),
  ALERT_CHANNEL: optionalText.refine((v) => v === undefined || /^[#A-Za-z0-9_-]+$/.test(v), {
    message: 'expected a channel id such as C012ABCDEF',
  }),
  POLL_SCHEDULE: optionalText.transform((v, ctx) => {
    const schedule = v ?? '* * * * *';
    if (!isValidCronExpression(schedule)) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected a cron expression with 5 or 6 fields (seconds first), e.g. "*/30 * * * * *"',
      });
      return z.NEVER;
    }
    return schedule;
  }),
  ALERT_LOOKBACK: duration('24h'),
  ALERT_ROUTES: parsedBy('ALERT_ROUTES', parseAlertRoutes),
  ALERT_ONCALL: parsedBy('ALERT_ONCALL', parseOnCall),
  ALERT_TIME_ZONE: optionalText.transform((v, ctx) => {
    const zone = canonicalTimeZone(v ?? 'UTC');
    if (zone === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected an IANA time zone such as Europe/Berlin, America/New_York or UTC',
      });
      return z.NEVER;
    }
    return zone;
  }),
  ALERT_RESOLVE_NOTE: optionalText.transform((v, ctx) => {
    const choice = (v ?? 'required').toLowerCase();
    if (choice !== 'required' && choice !== 'optional') {
      ctx.addIssue({ code: 'custom', message: 'expected required or optional' });
      return z.NEVER;
    }
    return choice === 'required';
  }),
  ALERT_REMIND_AFTER: duration('30m'),
  ALERT_STALE_AFTER: duration('24h'),
  STUCK_WITHDRAWAL_AFTER: duration('2h'),
  STUCK_TASK_AFTER: duration('6h'),
  STUCK_GAS_AFTER: duration('1h'),
  DIGEST_AT: optionalText.transform((v, ctx): DigestTime | undefined => {
    if (v === undefined) return undefined;
    const match = /^(\d{1,2}):(\d{2})\s+(\S+)$/.exec(v);
    const zone = match ? canonicalTimeZone(match[3]!) : undefined;
    if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected a time of day (24-hour HH:MM) and an IANA time zone, such as "09:00 Europe/Berlin"',
      });
      return z.NEVER;
    }
    if (zone === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `"${match[3]}" is not a time zone this system knows; expected an IANA name such as Europe/Berlin, America/New_York or UTC`,
      });
      return z.NEVER;
    }
    return { hour: Number(match[1]), minute: Number(match[2]), timeZone: zone };
  }),
  DIGEST_CHANNEL: optionalText.refine((v) => v === undefined || /^[#A-Za-z0-9_-]+$/.test(v), {
    message: 'expected a channel id such as C012ABCDEF',
  }),
  INVOICE_FOLLOW_MAX: optionalText.transform((v, ctx) => {
    if (v === undefined) return 100;
    const max = /^\d{1,6}$/.test(v) ? Number(v) : Number.NaN;
    if (!(max >= 1)) {
      ctx.addIssue({ code: 'custom', message: 'expected a whole number of invoices, at least 1 (e.g. 100)' });
      return z.NEVER;
    }
    return max;
  }),
  FREEZE_UNFREEZE_QUORUM: optionalText.transform((v, ctx) => {
    if (v === undefined) return DEFAULT_UNFREEZE_QUORUM;
    const quorum = /^\d{1,3}$/.test(v) ? Number(v) : Number.NaN;
    if (!(quorum >= 1)) {
      ctx.addIssue({ code: 'custom', message: 'expected a whole number of admins, at least 1 (e.g. 2)' });
      return z.NEVER;
    }
    return quorum;
  }),
  SWAP_APPROVERS: usersAndGroups,
  TREASURY_ADMINS: usersAndGroups,
  SWAP_POLICY: parsedBy('SWAP_POLICY', parseSwapPolicy),
  SWAP_DAILY_LIMIT_USD: parsedBy('SWAP_DAILY_LIMIT_USD', (text) => parseUsdLimit(text, 'SWAP_DAILY_LIMIT_USD')),
  SWAP_MAX_USD: parsedBy('SWAP_MAX_USD', (text) => parseUsdLimit(text, 'SWAP_MAX_USD')),
  SWAP_STEP_UP_USD: parsedBy('SWAP_STEP_UP_USD', (text) => parseUsdLimit(text, 'SWAP_STEP_UP_USD')),
  TOTP_ENCRYPTION_KEY: optionalText.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const key = parseEncryptionKey(v);
    if (!key) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected 32 random bytes as 64 hex digits or as base64 (make one with: openssl rand -base64 32)',
      });
      return z.NEVER;
    }
    return key;
  }),
  RUNWAY_ALERT_DAYS: optionalText.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const days = parseRunwayDays(v);
    if (!days) {
      ctx.addIssue({ code: 'custom', message: 'expected a positive number of days, at most two decimals (e.g. 3)' });
      return z.NEVER;
    }
    return { text: v.trim(), days };
  }),
  ALLOW_SELF_APPROVAL: optionalText.transform((v, ctx) => {
    if (v === undefined) return false;
    if (/^(true|1|yes)$/i.test(v)) return true;
    if (/^(false|0|no)$/i.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: 'expected true or false' });
    return z.NEVER;
  }),
  TREASURY_USERS: treasuryUserList,
  DATA_FILE: optionalText.transform((v) => v ?? './data/state.json'),
  DATABASE_URL: optionalText.refine((v) => v === undefined || /^postgres(ql)?:\/\/\S+$/.test(v), {
    message: 'expected a PostgreSQL URL such as postgres://user:password@host:5432/treasury',
  }),
  REPLICA_NAME: optionalText.refine((v) => v === undefined || /^[A-Za-z0-9._-]{1,60}$/.test(v), {
    message: 'expected a short name of letters, digits, dots, dashes or underscores (e.g. the pod name)',
  }),
  METRICS_PORT: optionalText.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const port = /^\d{1,5}$/.test(v) ? Number(v) : NaN;
    if (!(port >= 0 && port <= 65535)) {
      ctx.addIssue({ code: 'custom', message: 'expected a TCP port number from 1 to 65535 (0 picks a free one)' });
      return z.NEVER;
    }
    return port;
  }),
  METRICS_TOKEN: optionalText,
  LOG_LEVEL: optionalText.transform((v, ctx) => {
    const level = (v ?? 'info').toLowerCase();
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      ctx.addIssue({ code: 'custom', message: `expected one of ${LOG_LEVELS.join(', ')}` });
      return z.NEVER;
    }
    return level as LogLevelName;
  }),
  HEARTBEAT_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), {
    message: 'expected an http(s) URL such as https://hc-ping.com/<uuid>',
  }),
  LOG_FORMAT: optionalText.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const format = v.toLowerCase();
    if (!(LOG_FORMATS as readonly string[]).includes(format)) {
      ctx.addIssue({ code: 'custom', message: `expected one of ${LOG_FORMATS.join(', ')}` });
      return z.NEVER;
    }
    return format as LogFormatName;
  }),
});

/** The canonical name of an IANA time zone Intl knows (`europe/berlin` → `Europe/Berlin`); undefined otherwise. */
function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Reads a `.env` file into a plain object when it exists. Values already in the real environment win,
 * so a deployment can override the file without editing it.
 */
export function readDotEnv(path = '.env'): Record<string, string> {
  if (!existsSync(path)) return {};
  return parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
}

/**
 * The variables only a real deployment sets (everything but PORT, HOST, LOG_LEVEL, LOG_FORMAT, which the local workspace
 * honours too). Present at all, even empty, they mean "this is a deployment".
 */
export const DEPLOYMENT_VARIABLES = [
  'PAYMENTS_API_URL',
  'PAYMENTS_API_KEY',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_API_URL',
  'DATABASE_URL',
  'REPLICA_NAME',
  'DATA_FILE',
  'ALERT_CHANNEL',
  'POLL_SCHEDULE',
  'ALERT_LOOKBACK',
  'ALERT_ROUTES',
  'ALERT_ONCALL',
  'ALERT_TIME_ZONE',
  'ALERT_RESOLVE_NOTE',
  'ALERT_REMIND_AFTER',
  'ALERT_STALE_AFTER',
  'STUCK_WITHDRAWAL_AFTER',
  'STUCK_TASK_AFTER',
  'STUCK_GAS_AFTER',
  'DIGEST_AT',
  'DIGEST_CHANNEL',
  'INVOICE_FOLLOW_MAX',
  'FREEZE_UNFREEZE_QUORUM',
  'SWAP_APPROVERS',
  'ALLOW_SELF_APPROVAL',
  'SWAP_POLICY',
  'SWAP_MAX_USD',
  'SWAP_DAILY_LIMIT_USD',
  'SWAP_STEP_UP_USD',
  'TOTP_ENCRYPTION_KEY',
  'TREASURY_USERS',
  'TREASURY_ADMINS',
  'HEARTBEAT_URL',
  'RUNWAY_ALERT_DAYS',
] as const;

/**
 * True when `npm start` should open the local workspace instead of connecting: none of the deployment
 * variables present (even empty), no `.env` file, and NODE_ENV not production (in any case). Anything else
 * keeps the normal start-up, whose configuration errors stay errors: a deployment with a blank or forgotten
 * variable must never quietly become a demo.
 */
export function hasNoConfiguration(env: NodeJS.ProcessEnv = process.env, dotEnvPath = '.env'): boolean {
  if (isProduction(env) || existsSync(dotEnvPath)) return false;
  return DEPLOYMENT_VARIABLES.every((name) => env[name] === undefined);
}

/** NODE_ENV=production (in any case). */
function isProduction(env: NodeJS.ProcessEnv): boolean {
  return (env.NODE_ENV ?? '').trim().toLowerCase() === 'production';
}

/** Parses and validates the configuration; throws ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = { ...readDotEnv(), ...process.env }): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'environment')}: ${issue.message}`);
  // Checked outside the schema so it is reported together with the other problems, not after them.
  if (!env.SLACK_APP_TOKEN?.trim() && !env.SLACK_SIGNING_SECRET?.trim()) {
    problems.push(
      "SLACK_SIGNING_SECRET: required in HTTP mode (when SLACK_APP_TOKEN is not set): the app's signing secret",
    );
  }
  // Routes only ever add channels: the kinds they leave out, and the poller itself, need ALERT_CHANNEL.
  if (env.ALERT_ROUTES?.trim() && !env.ALERT_CHANNEL?.trim()) {
    problems.push(
      'ALERT_ROUTES: set, but ALERT_CHANNEL is not, so the poller is off and no alert would be sent; set ALERT_CHANNEL too (alerts of kinds not routed go there)',
    );
  }
  // The digest needs somewhere to go, and a channel without a time would quietly post nothing.
  if (env.DIGEST_AT?.trim() && !env.DIGEST_CHANNEL?.trim() && !env.ALERT_CHANNEL?.trim()) {
    problems.push(
      'DIGEST_AT: set, but neither DIGEST_CHANNEL nor ALERT_CHANNEL is, so the digest has nowhere to go; set DIGEST_CHANNEL to a channel id',
    );
  }
  if (env.DIGEST_CHANNEL?.trim() && !env.DIGEST_AT?.trim()) {
    problems.push(
      'DIGEST_CHANNEL: set, but DIGEST_AT is not, so no digest would be posted; set DIGEST_AT too (e.g. "09:00 Europe/Berlin")',
    );
  }
  // Unset, the bot would be open to every member and guest of the organisation: a deployment says so explicitly.
  if (isProduction(env) && !env.TREASURY_USERS?.trim()) {
    problems.push(
      `TREASURY_USERS: required in production (NODE_ENV=production): list who may use the bot (user ids U…, user group ids S…; a group of one workspace's people admits that workspace only), or set it to * for ${EVERYONE_MEANS}`,
    );
  }
  // A second factor nobody can enrol in would block every large approval; refuse to start instead.
  if (env.SWAP_STEP_UP_USD?.trim() && !env.TOTP_ENCRYPTION_KEY?.trim()) {
    problems.push(
      'TOTP_ENCRYPTION_KEY: required when SWAP_STEP_UP_USD is set: the key the authenticator secrets are encrypted with (make one with: openssl rand -base64 32)',
    );
  }
  // A runway alert that could never come (no poller to raise it) is refused, not silent. The daily snapshots it
  // measures on are taken by a job of their own, with or without DIGEST_AT.
  if (env.RUNWAY_ALERT_DAYS?.trim() && !env.ALERT_CHANNEL?.trim())
    problems.push('RUNWAY_ALERT_DAYS: set, but ALERT_CHANNEL is not, so the alert poller that raises it is off');
  if (!parsed.success || problems.length > 0) throw new ConfigError([...new Set(problems)]);
  const e = parsed.data;
  return {
    paymentsApiUrl: e.PAYMENTS_API_URL.replace(/\/+$/, ''),
    paymentsApiKey: e.PAYMENTS_API_KEY,
    slackBotToken: e.SLACK_BOT_TOKEN,
    slackAppToken: e.SLACK_APP_TOKEN,
    slackSigningSecret: e.SLACK_SIGNING_SECRET,
    slackApiUrl: e.SLACK_API_URL === undefined ? undefined : e.SLACK_API_URL.replace(/\/*$/, '/'),
    port: e.PORT,
    host: e.HOST ?? '0.0.0.0',
    alertChannel: e.ALERT_CHANNEL?.replace(/^#/, ''),
    pollSchedule: e.POLL_SCHEDULE,
    alertLookbackMs: e.ALERT_LOOKBACK,
    alertRoutes: e.ALERT_ROUTES.routes,
    alertOnCall: e.ALERT_ONCALL.oncall,
    alertTimeZone: e.ALERT_TIME_ZONE,
    alertResolveNoteRequired: e.ALERT_RESOLVE_NOTE,
    alertRemindAfterMs: e.ALERT_REMIND_AFTER,
    alertStaleAfterMs: e.ALERT_STALE_AFTER,
    stuckAfterMs: { withdrawal: e.STUCK_WITHDRAWAL_AFTER, task: e.STUCK_TASK_AFTER, gas: e.STUCK_GAS_AFTER },
    digestAt: e.DIGEST_AT,
    digestChannel: e.DIGEST_AT ? (e.DIGEST_CHANNEL ?? e.ALERT_CHANNEL)?.replace(/^#/, '') : undefined,
    invoiceFollowMax: e.INVOICE_FOLLOW_MAX,
    freezeUnfreezeQuorum: e.FREEZE_UNFREEZE_QUORUM,
    swapApprovers: e.SWAP_APPROVERS,
    allowSelfApproval: e.ALLOW_SELF_APPROVAL,
    swapPolicyTiers: e.SWAP_POLICY.tiers,
    swapMaxUsdCents: e.SWAP_MAX_USD.limitCents,
    swapDailyLimitUsdCents: e.SWAP_DAILY_LIMIT_USD.limitCents,
    swapStepUpUsdCents: e.SWAP_STEP_UP_USD.limitCents,
    totpEncryptionKey: e.TOTP_ENCRYPTION_KEY,
    treasuryUsers: e.TREASURY_USERS ?? ['*'],
    treasuryUsersDefaulted: e.TREASURY_USERS === undefined,
    treasuryAdmins: e.TREASURY_ADMINS.length > 0 ? e.TREASURY_ADMINS : e.SWAP_APPROVERS,
    treasuryAdminsDefaulted: e.TREASURY_ADMINS.length === 0,
    dataFile: e.DATA_FILE,
    databaseUrl: e.DATABASE_URL,
    replicaName: e.REPLICA_NAME ?? `${hostname()}-${process.pid}`,
    logLevel: e.LOG_LEVEL,
    heartbeatUrl: e.HEARTBEAT_URL,
    logFormat: e.LOG_FORMAT ?? (isProduction(env) ? 'json' : 'text'),
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    runwayAlertDays: e.RUNWAY_ALERT_DAYS,
  };
}

/**
 * TOTP_ENCRYPTION_KEY as 32 bytes: 64 hex digits, or base64 (standard or URL-safe) of exactly 32 bytes; anything
 * else (a passphrase, a short key) is undefined, so the bot refuses to start rather than use a weak key.
 */
export function parseEncryptionKey(text: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return undefined;
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? key : undefined;
}

/** Where the bot's records are: the state file, or PostgreSQL when DATABASE_URL is set. */
export interface StoreConfig {
  dataFile: string;
  databaseUrl: string | undefined;
}

/**
 * The store's part of the configuration, read from the same environment (and `.env`) with the same rules as
 * loadConfig, for tools that only read the records (`npm run audit`): they need no Slack or payment settings.
 */
export function loadStoreConfig(env: NodeJS.ProcessEnv = { ...readDotEnv(), ...process.env }): StoreConfig {
  const parsed = EnvSchema.pick({ DATA_FILE: true, DATABASE_URL: true }).safeParse(env);
  if (!parsed.success)
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'environment')}: ${issue.message}`),
    );
  return { dataFile: parsed.data.DATA_FILE, databaseUrl: parsed.data.DATABASE_URL };
}
