/**
 * The configuration: every environment variable declared once in VARIABLES (how it is read, its default, whether
 * it is a secret, its line in the README, how start-up prints it), the rules between variables in RULES, and
 * `Config`, the type of what they read. config-display.ts, dev/ and the docs' tests derive from these two tables.
 */
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { parseEnv } from 'node:util';
import { validate as isValidCronExpression } from 'node-cron';
import { z } from 'zod';
import { EVERYONE_MEANS } from './features/access/rules.js';
import { type AlertRoutes, parseAlertRoutes, parseOnCall } from './features/alerts/routing.js';
import { type DigestTime, formatDigestTime } from './features/digest/rules.js';
import { DEFAULT_UNFREEZE_QUORUM } from './features/freeze/rules.js';
import { parseRunwayDays } from './features/runway/rules.js';
import { formatTiers, parseSwapPolicy, parseUsdLimit, usdLabel } from './features/swaps/policy.js';
import { formatDuration, parseDuration } from './kernel/durations.js';
import { CodedError } from './kernel/errors.js';
import { redactDatabaseUrl, redactHeartbeatUrl, redactUrl } from './kernel/redact.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormatName, type LogLevelName } from './logger.js';

/** Thrown when the environment is unusable; `problems` holds one readable line per variable. */
export class ConfigError extends CodedError {
  declare readonly code: 'config_invalid';
  constructor(readonly problems: string[]) {
    super('config_invalid', `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** One environment variable, declared once. */
interface Variable<F extends string, T> {
  /** The Config field it fills; `group.part` fills a part of one (`stuckAfterMs.withdrawal`). */
  field: F;
  /** Reads the raw value (undefined when unset, `default` when unset or blank); its problems name no variable. */
  schema: z.ZodType<T>;
  /** The text read when the variable is unset or blank (the README's and docs' default, in backticks). */
  default?: string;
  /** Its one line: the README table's "What it sets". */
  doc: string;
  /** Never printed whole (shown through `show`, else masked) and scrubbed from every log line. */
  secret?: true;
  /** Not a deployment's alone: set by itself, `npm start` may still open the local workspace. */
  local?: true;
  /**
   * How start-up prints it; false: printed within another variable's line. Default: as read (masked if secret).
   * Each one written inline says `: string` as its return type: that lets TypeScript check it after Config is known.
   */
  show?: ((value: T, config: Config) => string) | false;
  /** The printed line's name when it is not the variable's. */
  shownAs?: string;
}

/** Declares a variable filling `field` (a function so that TypeScript infers its field and value types). */
const variable = <F extends string, T>(field: F, spec: Omit<Variable<F, T>, 'field'>): Variable<F, T> => ({
  field,
  ...spec,
});

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Optional text that must match `pattern` when set. */
const matching = (pattern: RegExp, message: string) =>
  optionalText.refine((v) => v === undefined || pattern.test(v), { message });

/** Reads text with `parse`; undefined from it is the problem `message`. */
const check =
  <T>(message: string, parse: (text: string) => T | undefined) =>
  (text: string, ctx: z.RefinementCtx): T => {
    const value = parse(text);
    if (value === undefined) ctx.addIssue({ code: 'custom', message });
    return value ?? z.NEVER;
  };

/** A variable read by `parse` (see check); unset or blank: undefined. */
const optional = <T>(message: string, parse: (text: string) => T | undefined) =>
  optionalText.transform((v, ctx) => (v === undefined ? undefined : check(message, parse)(v, ctx)));

/** As `optional`, for a variable with a default: there is always text to read. */
const given = <T>(message: string, parse: (text: string) => T | undefined) =>
  z.string().trim().transform(check(message, parse));

/**
 * A variable read by one of the domain's parsers, which name the variable in each problem themselves (the name is
 * put in front once by readVariables): each problem becomes one issue; `pick` takes what Config keeps.
 */
const parsedBy = <R extends { problems: string[] }, T>(parse: (text: string) => R, pick: (read: R) => T) =>
  optionalText.transform((v, ctx): T => {
    const read = parse(v ?? '');
    for (const problem of read.problems) ctx.addIssue({ code: 'custom', message: problem });
    return read.problems.length > 0 ? z.NEVER : pick(read);
  });

const httpUrl = (what: string) =>
  z
    .string({ error: `required: ${what}` })
    .trim()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), `expected an http(s) URL: ${what}`);

const PORT_PROBLEM = 'expected a TCP port number from 1 to 65535 (0 picks a free one)';
const tcpPort = (text: string) => (/^\d{1,5}$/.test(text) && Number(text) <= 65535 ? Number(text) : undefined);
const wholeNumber = (digits: number) => (text: string) =>
  new RegExp(`^\\d{1,${digits}}$`).test(text) && Number(text) >= 1 ? Number(text) : undefined;
const oneOf =
  <T extends string>(names: readonly T[]) =>
  (text: string) =>
    names.find((name) => name === text.toLowerCase());
const channel = matching(/^[#A-Za-z0-9_-]+$/, 'expected a channel id such as C012ABCDEF').transform((v) =>
  v?.replace(/^#/, ''),
);
const RESOLVE_NOTE = new Map([
  ['required', true],
  ['optional', false],
]);
/** A duration (`90s`, `30m`, `24h`, `7d`) with its default, printed as it is written. */
const duration = (fallback: string) => ({
  default: fallback,
  schema: given('expected a duration such as 30m, 24h or 7d', parseDuration),
  show: formatDuration,
});

/**
 * A comma-separated list of Slack user ids (U…/W…) and user group ids (S…), each bad one its own problem; with
 * `everyone`, `*` alone (EVERYONE_MEANS, said explicitly) too, and unset is undefined rather than empty.
 */
function slackIds(everyone: true): z.ZodType<string[] | undefined>;
function slackIds(everyone?: false): z.ZodType<string[]>;
function slackIds(everyone = false): z.ZodType<string[] | undefined> {
  return optionalText.transform((v, ctx) => {
    const ids = (v ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    if (everyone && ids.includes('*')) {
      if (ids.length > 1)
        ctx.addIssue({
          code: 'custom',
          message: `\`*\` (${EVERYONE_MEANS}) stands alone; remove the other ids, or remove the \`*\``,
        });
      return ['*'];
    }
    for (const id of ids.filter((id) => !/^[UW][A-Z0-9]{2,}$/.test(id) && !/^S[A-Z0-9]{2,}$/.test(id)))
      ctx.addIssue({
        code: 'custom',
        message: `"${id}" is not a Slack user id (U012ABCDEF) or user group id (S012ABCDEF)${everyone ? ', nor `*`' : ''}; names and @mentions are not accepted`,
      });
    return everyone && ids.length === 0 ? undefined : ids;
  });
}

/** DIGEST_AT: `HH:MM Zone`, with a problem of its own for a zone this system does not know. */
const digestTime = optionalText.transform((v, ctx): DigestTime | undefined => {
  if (v === undefined) return undefined;
  const match = /^(\d{1,2}):(\d{2})\s+(\S+)$/.exec(v);
  const [hour, minute, zone] = [Number(match?.[1]), Number(match?.[2]), canonicalTimeZone(match?.[3] ?? '')];
  const problem =
    !match || hour > 23 || minute > 59
      ? 'expected a time of day (24-hour HH:MM) and an IANA time zone, such as "09:00 Europe/Berlin"'
      : zone === undefined
        ? `"${match[3]}" is not a time zone this system knows; expected an IANA name such as Europe/Berlin, America/New_York or UTC`
        : undefined;
  if (problem === undefined) return { hour, minute, timeZone: zone! };
  ctx.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
});

/** A USD amount in exact cents (`$250,000`, `250000.50`); unset: `unset`, as start-up prints it. */
const usdLimit = (name: string, unset: string) => ({
  schema: parsedBy(
    (text) => parseUsdLimit(text, name),
    (read) => read.limitCents,
  ),
  show: (cents: bigint | undefined) => (cents === undefined ? unset : usdLabel(cents)),
});

/** Every variable the bot reads, in the order start-up prints them. */
export const VARIABLES = {
  PAYMENTS_API_URL: variable('paymentsApiUrl', {
    schema: httpUrl('the payment API base URL, e.g. https://api.example.com').transform((url) =>
      url.replace(/\/+$/, ''),
    ),
    doc: 'base URL of the payment API',
    show: redactUrl,
  }),
  PAYMENTS_API_KEY: variable('paymentsApiKey', {
    schema: z
      .string({ error: 'required: the merchant API key (sent as the apiKey header)' })
      .trim()
      .min(1, 'required: the merchant API key (sent as the apiKey header)'),
    doc: 'merchant API key (withdrawal, `can_payout`, `can_invoice` permissions)',
    secret: true,
  }),
  SLACK_BOT_TOKEN: variable('slackBotToken', {
    schema: z
      .string({ error: 'required: the bot token, starting with xoxb-' })
      .trim()
      .regex(/^xoxb-/, 'expected a bot token starting with xoxb-'),
    doc: 'bot token, `xoxb-…`',
    secret: true,
  }),
  SLACK_APP_TOKEN: variable('slackAppToken', {
    schema: matching(/^xapp-/, 'expected an app-level token starting with xapp- (or leave it unset for HTTP mode)'),
    doc: 'app-level token, `xapp-…`: Socket Mode',
    secret: true,
  }),
  SLACK_SIGNING_SECRET: variable('slackSigningSecret', {
    schema: optionalText,
    doc: 'verifies that requests come from Slack',
    secret: true,
  }),
  SLACK_API_URL: variable('slackApiUrl', {
    schema: matching(/^https?:\/\/\S+$/, 'expected an http(s) URL such as https://slack.com/api/').transform((url) =>
      url?.replace(/\/*$/, '/'),
    ),
    doc: 'Web API base',
    show: (url): string => (url ? redactUrl(url) : '(default: https://slack.com/api/)'),
  }),
  PORT: variable('port', {
    default: '3000',
    schema: given(PORT_PROBLEM, tcpPort),
    doc: "Slack's requests (HTTP mode), `/healthz` and `/readyz`",
    local: true,
    shownAs: 'MODE',
    show: (port, c): string =>
      c.slackAppToken ? `socket (/healthz on port ${port})` : `http (${c.host} port ${port})`,
  }),
  HOST: variable('host', {
    default: '0.0.0.0',
    schema: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.:-]+$/, 'expected an interface address such as 127.0.0.1, 0.0.0.0 or ::'),
    doc: 'interface the HTTP server binds',
    local: true,
    show: false,
  }),
  ALERT_CHANNEL: variable('alertChannel', {
    schema: channel,
    doc: 'channel id for failure alerts',
    show: (id): string => id ?? '(unset: poller off)',
  }),
  POLL_SCHEDULE: variable('pollSchedule', {
    default: '* * * * *',
    schema: given('expected a cron expression with 5 or 6 fields (seconds first), e.g. "*/30 * * * * *"', (text) =>
      isValidCronExpression(text) ? text : undefined,
    ),
    doc: 'how often the poller runs (node-cron)',
  }),
  ALERT_LOOKBACK: variable('alertLookbackMs', {
    ...duration('24h'),
    doc: 'how far back the first poll looks',
    show: (ms): string => `${ms / 3_600_000}h`,
  }),
  ALERT_ROUTES: variable('alertRoutes', {
    schema: parsedBy(parseAlertRoutes, (read) => read.routes),
    doc: 'a kind of alert to its own channel and mention',
    show: (routes): string => describeRoutes(routes) || '(none: every kind goes to ALERT_CHANNEL)',
  }),
  ALERT_ONCALL: variable('alertOnCall', {
    schema: parsedBy(parseOnCall, (read) => read.oncall),
    doc: 'whom reminders mention',
    show: (oncall): string => oncall.map((who) => who.id).join(',') || '(nobody: reminders mention no one)',
  }),
  ALERT_TIME_ZONE: variable('alertTimeZone', {
    default: 'UTC',
    schema: given('expected an IANA time zone such as Europe/Berlin, America/New_York or UTC', canonicalTimeZone),
    doc: 'time zone of "Snooze until tomorrow 09:00" (and, without `DIGEST_AT`, of the daily balance snapshot at 00:05)',
  }),
  ALERT_RESOLVE_NOTE: variable('alertResolveNoteRequired', {
    default: 'required',
    schema: given('expected required or optional', (text) => RESOLVE_NOTE.get(text.toLowerCase())),
    doc: 'whether resolving an alert asks for a note',
    show: (required): string => (required ? 'required' : 'optional'),
  }),
  ALERT_REMIND_AFTER: variable('alertRemindAfterMs', {
    ...duration('30m'),
    doc: 'reminder for an alert nobody acknowledged',
  }),
  ALERT_STALE_AFTER: variable('alertStaleAfterMs', {
    ...duration('24h'),
    doc: 'reminder for an acknowledged alert not resolved',
  }),
  STUCK_WITHDRAWAL_AFTER: variable('stuckAfterMs.withdrawal', {
    ...duration('2h'),
    doc: 'a pending withdrawal counts as stuck',
  }),
  STUCK_TASK_AFTER: variable('stuckAfterMs.task', {
    ...duration('6h'),
    doc: 'a pending payout task counts as stuck',
  }),
  STUCK_GAS_AFTER: variable('stuckAfterMs.gas', {
    ...duration('1h'),
    doc: 'a pending gas top-up counts as stuck',
  }),
  DIGEST_AT: variable('digestAt', {
    schema: digestTime,
    doc: 'when the daily digest is posted, `09:00 Europe/Berlin`',
    show: (time): string => (time ? formatDigestTime(time) : '(unset: no daily digest)'),
  }),
  DIGEST_CHANNEL: variable('digestChannel', {
    schema: channel,
    doc: 'where the daily digest goes',
    show: (id): string => id ?? '(none: no daily digest)',
  }),
  RUNWAY_ALERT_DAYS: variable('runwayAlertDays', {
    schema: optional('expected a positive number of days, at most two decimals (e.g. 3)', (text) => {
      const days = parseRunwayDays(text);
      return days && { text, days };
    }),
    doc: "a `runway_low` alert when an asset's runway falls below this many days (needs `ALERT_CHANNEL`; measured on the daily balance snapshots the bot takes at `DIGEST_AT`, else at 00:05 in `ALERT_TIME_ZONE`)",
    show: (runway): string => (runway ? `${runway.text} days` : '(unset: no runway alert)'),
  }),
  INVOICE_FOLLOW_MAX: variable('invoiceFollowMax', {
    default: '100',
    schema: given('expected a whole number of invoices, at least 1 (e.g. 100)', wholeNumber(6)),
    doc: 'open invoices followed at most',
    show: (max, c): string =>
      c.alertChannel ? String(max) : `${max} (unused: ALERT_CHANNEL is unset, so invoices are not followed)`,
  }),
  FREEZE_UNFREEZE_QUORUM: variable('freezeUnfreezeQuorum', {
    default: String(DEFAULT_UNFREEZE_QUORUM),
    schema: given('expected a whole number of admins, at least 1 (e.g. 2)', wholeNumber(3)),
    doc: 'distinct admins whose Unfreeze lifts a `/treasury freeze`',
    show: (quorum): string => `${quorum} distinct admin(s)`,
  }),
  SWAP_APPROVERS: variable('swapApprovers', {
    schema: slackIds(),
    doc: 'who may approve swaps: user and user group ids',
    show: (ids): string => ids.join(',') || '(none: nobody can approve swaps)',
  }),
  ALLOW_SELF_APPROVAL: variable('allowSelfApproval', {
    default: 'false',
    schema: given('expected true or false', (text) =>
      /^(true|1|yes)$/i.test(text) ? true : /^(false|0|no)$/i.test(text) ? false : undefined,
    ),
    doc: 'whether a requester may approve their own swap',
  }),
  SWAP_POLICY: variable('swapPolicyTiers', {
    default: '0:1',
    schema: parsedBy(parseSwapPolicy, (read) => read.tiers),
    doc: 'approvals a swap needs by its USD value',
    show: formatTiers,
  }),
  SWAP_MAX_USD: variable('swapMaxUsdCents', {
    ...usdLimit('SWAP_MAX_USD', '(no maximum)'),
    doc: 'the most one swap may be worth',
  }),
  SWAP_DAILY_LIMIT_USD: variable('swapDailyLimitUsdCents', {
    ...usdLimit('SWAP_DAILY_LIMIT_USD', '(no daily limit)'),
    doc: "what swaps out of one asset may add up to in 24 hours: judged exactly at the approval that would create the swap; at quote time the swaps created and in flight and the requester's own waiting quotes count (others' waiting quotes are warned about, never refuse it)",
  }),
  SWAP_STEP_UP_USD: variable('swapStepUpUsdCents', {
    ...usdLimit('SWAP_STEP_UP_USD', '(unset: no second factor is asked)'),
    doc: 'from this USD value (or an unknown one), approving needs an authenticator code',
    show: (cents): string =>
      cents === undefined ? '(unset: no second factor is asked)' : `${usdLabel(cents)} and above, or of unknown value`,
  }),
  TOTP_ENCRYPTION_KEY: variable('totpEncryptionKey', {
    schema: optional(
      'expected 32 random bytes as 64 hex digits or as base64 (make one with: openssl rand -base64 32)',
      parseEncryptionKey,
    ),
    doc: '32 random bytes (base64 or hex) that encrypt the authenticator secrets',
    secret: true,
    show: (key): string => (key ? '[set]' : '(unset: nobody can enrol a second factor)'),
  }),
  TREASURY_USERS: variable('treasuryUsers', {
    schema: slackIds(true),
    doc: 'who may use the bot at all: ids, user groups, or `*` for everyone in the installing organisation (on Enterprise Grid, every workspace of it; one workspace only: a user group of its people)',
    show: (_users, c): string =>
      c.treasuryUsersDefaulted
        ? `(unset: ${EVERYONE_MEANS}; production requires it to be set)`
        : c.treasuryUsers.includes('*')
          ? `* (${EVERYONE_MEANS})`
          : c.treasuryUsers.join(','),
  }),
  TREASURY_ADMINS: variable('treasuryAdmins', {
    schema: slackIds(),
    doc: 'who may set thresholds and export the audit trail',
    show: (ids, c): string =>
      c.treasuryAdminsDefaulted
        ? `(unset: the swap approvers${ids.length > 0 ? `, ${ids.join(',')}` : ': nobody'})`
        : ids.join(','),
  }),
  DATA_FILE: variable('dataFile', {
    default: './data/state.json',
    schema: z.string().trim(),
    doc: 'the state file of a single process',
    show: (path, c): string => (c.databaseUrl ? '(unused: DATABASE_URL is set)' : path),
  }),
  DATABASE_URL: variable('databaseUrl', {
    schema: matching(
      /^postgres(ql)?:\/\/\S+$/,
      'expected a PostgreSQL URL such as postgres://user:password@host:5432/treasury',
    ),
    doc: 'PostgreSQL, for two replicas or rolling updates',
    secret: true,
    show: (url): string => (url ? redactDatabaseUrl(url) : '(unset: the state file is the store)'),
  }),
  REPLICA_NAME: variable('replicaName', {
    schema: matching(
      /^[A-Za-z0-9._-]{1,60}$/,
      'expected a short name of letters, digits, dots, dashes or underscores (e.g. the pod name)',
    ).transform((name) => name ?? `${hostname()}-${process.pid}`),
    doc: "this process's name among replicas",
  }),
  LOG_LEVEL: variable('logLevel', {
    default: 'info',
    schema: given(`expected one of ${LOG_LEVELS.join(', ')}`, oneOf<LogLevelName>(LOG_LEVELS)),
    doc: '`debug`, `info`, `warn`, `error`',
    local: true,
  }),
  HEARTBEAT_URL: variable('heartbeatUrl', {
    schema: matching(/^https?:\/\/\S+$/, 'expected an http(s) URL such as https://hc-ping.com/<uuid>'),
    doc: "a GET after every successful poll (dead-man's switch, e.g. healthchecks.io)",
    secret: true,
    show: (url): string => (url ? redactHeartbeatUrl(url) : '(unset: no heartbeat)'),
  }),
  LOG_FORMAT: variable('logFormat', {
    schema: optional(`expected one of ${LOG_FORMATS.join(', ')}`, oneOf<LogFormatName>(LOG_FORMATS)),
    doc: '`json`: one JSON object per line ([operations.md](docs/operations.md#logs))',
    local: true,
  }),
  METRICS_PORT: variable('metricsPort', {
    schema: optional(PORT_PROBLEM, tcpPort),
    doc: 'a port of its own for `GET /metrics`',
    local: true,
    show: (port, c): string =>
      port === undefined ? `(unset: /metrics beside /healthz on port ${c.port})` : String(port),
  }),
  METRICS_TOKEN: variable('metricsToken', {
    schema: optionalText,
    doc: 'bearer token a Prometheus scrape must send; in HTTP mode, needed for `/metrics` on `PORT`',
    secret: true,
    local: true,
    show: (token): string => (token ? '[set]' : '(unset: /metrics needs no token)'),
  }),
};

/** A variable's name. */
export type VariableName = keyof typeof VARIABLES;
type Variables = typeof VARIABLES;
type Fields = {
  [N in VariableName as Variables[N]['field']]: Variables[N] extends Variable<string, infer T> ? T : never;
};
type Group<F> = F extends `${infer G}.${string}` ? G : never;
/** What the variables read, each under its field; `group.part` fields gathered into an object `group`. */
type Read = { [F in keyof Fields as F extends `${string}.${string}` ? never : F]: Fields[F] } & {
  [G in Group<keyof Fields>]: { [F in keyof Fields as F extends `${G}.${infer P}` ? P : never]: Fields[F] };
};

/** The bot's whole configuration: what VARIABLES read, with the defaults that borrow another value settled. */
export interface Config extends Read {
  /** TREASURY_USERS, or `['*']` (EVERYONE_MEANS) when unset outside production (`treasuryUsersDefaulted`). */
  treasuryUsers: string[];
  treasuryUsersDefaulted: boolean;
  /** TREASURY_ADMINS, or the swap approvers when unset (`treasuryAdminsDefaulted`). */
  treasuryAdminsDefaulted: boolean;
  /** LOG_FORMAT, or `json` in production and `text` elsewhere. */
  logFormat: LogFormatName;
}

/** A rule between variables: when it applies, one of `requires` must be set, else the problem `says`. */
interface Rule {
  when: VariableName | ((env: NodeJS.ProcessEnv) => boolean);
  requires: VariableName | readonly VariableName[];
  says: string;
}

/** The rules between variables, checked with the variables so that every problem is reported at once. */
const RULES: readonly Rule[] = [
  {
    when: (env) => !isSet(env, 'SLACK_APP_TOKEN'),
    requires: 'SLACK_SIGNING_SECRET',
    says: "SLACK_SIGNING_SECRET: required in HTTP mode (when SLACK_APP_TOKEN is not set): the app's signing secret",
  },
  // Routes only ever add channels: the kinds they leave out, and the poller itself, need ALERT_CHANNEL.
  {
    when: 'ALERT_ROUTES',
    requires: 'ALERT_CHANNEL',
    says: 'ALERT_ROUTES: set, but ALERT_CHANNEL is not, so the poller is off and no alert would be sent; set ALERT_CHANNEL too (alerts of kinds not routed go there)',
  },
  // The digest needs somewhere to go, and a channel without a time would quietly post nothing.
  {
    when: 'DIGEST_AT',
    requires: ['DIGEST_CHANNEL', 'ALERT_CHANNEL'],
    says: 'DIGEST_AT: set, but neither DIGEST_CHANNEL nor ALERT_CHANNEL is, so the digest has nowhere to go; set DIGEST_CHANNEL to a channel id',
  },
  {
    when: 'DIGEST_CHANNEL',
    requires: 'DIGEST_AT',
    says: 'DIGEST_CHANNEL: set, but DIGEST_AT is not, so no digest would be posted; set DIGEST_AT too (e.g. "09:00 Europe/Berlin")',
  },
  // Unset, the bot would be open to every member and guest of the organisation: a deployment says so explicitly.
  {
    when: isProduction,
    requires: 'TREASURY_USERS',
    says: `TREASURY_USERS: required in production (NODE_ENV=production): list who may use the bot (user ids U…, user group ids S…; a group of one workspace's people admits that workspace only), or set it to * for ${EVERYONE_MEANS}`,
  },
  // A second factor nobody can enrol in would block every large approval; refuse to start instead.
  {
    when: 'SWAP_STEP_UP_USD',
    requires: 'TOTP_ENCRYPTION_KEY',
    says: 'TOTP_ENCRYPTION_KEY: required when SWAP_STEP_UP_USD is set: the key the authenticator secrets are encrypted with (make one with: openssl rand -base64 32)',
  },
  // A runway alert that could never come (no poller to raise it) is refused, not silent. The daily snapshots it
  // measures on are taken by a job of their own, with or without DIGEST_AT.
  {
    when: 'RUNWAY_ALERT_DAYS',
    requires: 'ALERT_CHANNEL',
    says: 'RUNWAY_ALERT_DAYS: set, but ALERT_CHANNEL is not, so the alert poller that raises it is off',
  },
];

/** Set to something other than blanks. */
function isSet(env: NodeJS.ProcessEnv, name: VariableName): boolean {
  return Boolean(env[name]?.trim());
}

/** NODE_ENV=production (in any case). */
export function isProduction(env: NodeJS.ProcessEnv): boolean {
  return (env.NODE_ENV ?? '').trim().toLowerCase() === 'production';
}

/** The canonical name of an IANA time zone Intl knows (`europe/berlin` → `Europe/Berlin`); undefined otherwise. */
function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** ALERT_ROUTES written back as it is set (`kind=CHANNEL@MENTION`, comma-separated). */
function describeRoutes(routes: AlertRoutes): string {
  return Object.entries(routes)
    .map(([kind, route]) => `${kind}=${route.channel}${route.mention ? `@${route.mention.id}` : ''}`)
    .join(',');
}

/**
 * Reads a `.env` file into a plain object when it exists. Values already in the real environment win,
 * so a deployment can override the file without editing it.
 */
export function readDotEnv(path = '.env'): Record<string, string> {
  if (!existsSync(path)) return {};
  return parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
}

/** Reads the named variables into their fields, with one problem line per issue (`NAME: …`, named once). */
function readVariables(names: readonly VariableName[], env: NodeJS.ProcessEnv) {
  const read: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of names) {
    const spec: { field: string; schema: z.ZodType; default?: string } = VARIABLES[name];
    const raw = env[name];
    const result = spec.schema.safeParse(spec.default !== undefined && !raw?.trim() ? spec.default : raw);
    if (!result.success) {
      for (const { message } of result.error.issues)
        problems.push(`${name}: ${message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message}`);
      continue;
    }
    const [group, part] = spec.field.split('.') as [string, string | undefined];
    if (part === undefined) read[group] = result.data;
    else read[group] = { ...(read[group] as object), [part]: result.data };
  }
  return { read: read as Read, problems };
}

/** Parses and validates the configuration; throws ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = { ...readDotEnv(), ...process.env }): Config {
  const { read, problems } = readVariables(Object.keys(VARIABLES) as VariableName[], env);
  for (const rule of RULES) {
    const applies = typeof rule.when === 'function' ? rule.when(env) : isSet(env, rule.when);
    const required: readonly VariableName[] = typeof rule.requires === 'string' ? [rule.requires] : rule.requires;
    if (applies && !required.some((name) => isSet(env, name))) problems.push(rule.says);
  }
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return {
    ...read,
    digestChannel: read.digestAt ? (read.digestChannel ?? read.alertChannel) : undefined,
    treasuryUsers: read.treasuryUsers ?? ['*'],
    treasuryUsersDefaulted: read.treasuryUsers === undefined,
    treasuryAdmins: read.treasuryAdmins.length > 0 ? read.treasuryAdmins : read.swapApprovers,
    treasuryAdminsDefaulted: read.treasuryAdmins.length === 0,
    logFormat: read.logFormat ?? (isProduction(env) ? 'json' : 'text'),
  };
}

/**
 * TOTP_ENCRYPTION_KEY as 32 bytes: 64 hex digits, or base64 (standard or URL-safe) of exactly 32 bytes; anything
 * else (a passphrase, a short key) is undefined, so the bot refuses to start rather than use a weak key.
 */
function parseEncryptionKey(text: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return undefined;
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? key : undefined;
}

/**
 * The store's part of the configuration, read from the same environment (and `.env`) with the same rules as
 * loadConfig, for tools that only read the records (`npm run audit`): they need no Slack or payment settings.
 */
export function loadStoreConfig(
  env: NodeJS.ProcessEnv = { ...readDotEnv(), ...process.env },
): Pick<Config, 'dataFile' | 'databaseUrl'> {
  const { read, problems } = readVariables(['DATA_FILE', 'DATABASE_URL'], env);
  if (problems.length > 0) throw new ConfigError(problems);
  return { dataFile: read.dataFile, databaseUrl: read.databaseUrl };
}
