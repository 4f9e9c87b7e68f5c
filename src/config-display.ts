/**
 * The configuration as people and the log may see it: describeConfig prints every variable with its secrets
 * masked (start-up's summary), and logSecrets lists the secret values the logger scrubs from any line.
 */
import type { Config } from './config.js';
import { EVERYONE_MEANS } from './features/access/rules.js';
import type { AlertRoutes } from './features/alerts/routing.js';
import { formatDigestTime } from './features/digest/rules.js';
import { formatTiers, usdLabel } from './features/swaps/policy.js';
import { formatDuration } from './kernel/durations.js';

/** Masks a secret, keeping only a recognisable prefix (`xoxb-…`) so people can tell which token is set. */
export function redact(secret: string | undefined): string {
  if (secret === undefined) return '(unset)';
  const prefix = /^(xox[a-z]-|xapp-)/.exec(secret)?.[1] ?? '';
  return `${prefix}[redacted]`;
}

/** A URL safe to print: a user name, password and query values in it are masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = 'redacted';
      parsed.password = '';
    }
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, 'redacted');
    return parsed
      .toString()
      .replace('redacted@', '[redacted]@')
      .replace(/=redacted/g, '=[redacted]');
  } catch {
    return '[unparsable URL]';
  }
}

/**
 * A database URL safe to print: everything before the last `@` (user and password, which may hold any
 * character, `/` included) is masked, and query values too.
 */
export function redactDatabaseUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  const at = url.lastIndexOf('@');
  if (at === -1) return redactUrl(url);
  const rest = url.slice(at + 1).replace(/([?&][^=&]+)=[^&]*/g, '$1=[redacted]');
  return `${scheme}[redacted]@${rest}`;
}

/** The configuration as safe-to-print lines: every secret redacted. */
export function describeConfig(config: Config): Record<string, string> {
  return {
    PAYMENTS_API_URL: redactUrl(config.paymentsApiUrl),
    PAYMENTS_API_KEY: redact(config.paymentsApiKey),
    SLACK_BOT_TOKEN: redact(config.slackBotToken),
    SLACK_APP_TOKEN: redact(config.slackAppToken),
    SLACK_SIGNING_SECRET: redact(config.slackSigningSecret),
    SLACK_API_URL: config.slackApiUrl ? redactUrl(config.slackApiUrl) : '(default: https://slack.com/api/)',
    MODE: config.slackAppToken
      ? `socket (/healthz on port ${config.port})`
      : `http (${config.host} port ${config.port})`,
    ALERT_CHANNEL: config.alertChannel ?? '(unset: poller off)',
    POLL_SCHEDULE: config.pollSchedule,
    ALERT_LOOKBACK: `${config.alertLookbackMs / 3_600_000}h`,
    ALERT_ROUTES: describeRoutes(config.alertRoutes) || '(none: every kind goes to ALERT_CHANNEL)',
    ALERT_ONCALL: config.alertOnCall.map((who) => who.id).join(',') || '(nobody: reminders mention no one)',
    ALERT_TIME_ZONE: config.alertTimeZone,
    ALERT_RESOLVE_NOTE: config.alertResolveNoteRequired ? 'required' : 'optional',
    ALERT_REMIND_AFTER: formatDuration(config.alertRemindAfterMs),
    ALERT_STALE_AFTER: formatDuration(config.alertStaleAfterMs),
    STUCK_WITHDRAWAL_AFTER: formatDuration(config.stuckAfterMs.withdrawal),
    STUCK_TASK_AFTER: formatDuration(config.stuckAfterMs.task),
    STUCK_GAS_AFTER: formatDuration(config.stuckAfterMs.gas),
    DIGEST_AT: config.digestAt ? formatDigestTime(config.digestAt) : '(unset: no daily digest)',
    DIGEST_CHANNEL: config.digestChannel ?? '(none: no daily digest)',
    RUNWAY_ALERT_DAYS: config.runwayAlertDays ? `${config.runwayAlertDays.text} days` : '(unset: no runway alert)',
    INVOICE_FOLLOW_MAX: config.alertChannel
      ? String(config.invoiceFollowMax)
      : `${config.invoiceFollowMax} (unused: ALERT_CHANNEL is unset, so invoices are not followed)`,
    FREEZE_UNFREEZE_QUORUM: `${config.freezeUnfreezeQuorum} distinct admin(s)`,
    SWAP_APPROVERS: config.swapApprovers.join(',') || '(none: nobody can approve swaps)',
    ALLOW_SELF_APPROVAL: String(config.allowSelfApproval),
    SWAP_POLICY: formatTiers(config.swapPolicyTiers),
    SWAP_MAX_USD: config.swapMaxUsdCents === undefined ? '(no maximum)' : usdLabel(config.swapMaxUsdCents),
    SWAP_DAILY_LIMIT_USD:
      config.swapDailyLimitUsdCents === undefined ? '(no daily limit)' : usdLabel(config.swapDailyLimitUsdCents),
    SWAP_STEP_UP_USD:
      config.swapStepUpUsdCents === undefined
        ? '(unset: no second factor is asked)'
        : `${usdLabel(config.swapStepUpUsdCents)} and above, or of unknown value`,
    TOTP_ENCRYPTION_KEY: config.totpEncryptionKey ? '[set]' : '(unset: nobody can enrol a second factor)',
    TREASURY_USERS: config.treasuryUsersDefaulted
      ? `(unset: ${EVERYONE_MEANS}; production requires it to be set)`
      : config.treasuryUsers.includes('*')
        ? `* (${EVERYONE_MEANS})`
        : config.treasuryUsers.join(','),
    TREASURY_ADMINS: config.treasuryAdminsDefaulted
      ? `(unset: the swap approvers${config.treasuryAdmins.length > 0 ? `, ${config.treasuryAdmins.join(',')}` : ': nobody'})`
      : config.treasuryAdmins.join(','),
    DATA_FILE: config.databaseUrl ? '(unused: DATABASE_URL is set)' : config.dataFile,
    DATABASE_URL: config.databaseUrl ? redactDatabaseUrl(config.databaseUrl) : '(unset: the state file is the store)',
    REPLICA_NAME: config.replicaName,
    LOG_LEVEL: config.logLevel,
    HEARTBEAT_URL: config.heartbeatUrl ? redactHeartbeatUrl(config.heartbeatUrl) : '(unset: no heartbeat)',
    LOG_FORMAT: config.logFormat,
    METRICS_PORT:
      config.metricsPort === undefined
        ? `(unset: /metrics beside /healthz on port ${config.port})`
        : String(config.metricsPort),
    METRICS_TOKEN: config.metricsToken ? '[set]' : '(unset: /metrics needs no token)',
  };
}

/** A heartbeat URL safe to print: its host only, since the path is the secret (healthchecks.io's ping URLs). */
export function redactHeartbeatUrl(url: string): string {
  try {
    return `${new URL(url).origin}/[redacted]`;
  } catch {
    return '[unparsable URL]';
  }
}

/** ALERT_ROUTES written back as it is set (`kind=CHANNEL@MENTION`, comma-separated). */
function describeRoutes(routes: AlertRoutes): string {
  return Object.entries(routes)
    .map(([kind, route]) => `${kind}=${route.channel}${route.mention ? `@${route.mention.id}` : ''}`)
    .join(',');
}

/**
 * The secret values of a configuration, for the logger to scrub from any line that would carry one: the tokens,
 * the API key, DATABASE_URL's password (and the URL whole), the TOTP key in its hex and base64 spellings, the
 * metrics token, and HEARTBEAT_URL (its path is often the monitor's secret).
 */
export function logSecrets(config: Config): string[] {
  const secrets = [
    config.slackBotToken,
    config.slackAppToken,
    config.slackSigningSecret,
    config.paymentsApiKey,
    config.metricsToken,
    config.heartbeatUrl,
  ];
  if (config.databaseUrl) {
    secrets.push(config.databaseUrl);
    const password = URL.canParse(config.databaseUrl) ? new URL(config.databaseUrl).password : '';
    if (password) secrets.push(password, decodeURIComponent(password));
  }
  const key = config.totpEncryptionKey;
  if (key) secrets.push(key.toString('hex'), key.toString('base64'), key.toString('base64url'));
  return secrets.filter((secret): secret is string => typeof secret === 'string' && secret !== '');
}
