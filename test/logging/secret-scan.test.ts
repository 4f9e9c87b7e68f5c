/** The patterns the end-of-run log scan greps for (test/support/log-scan): each finds its secret, none flags a safe line. */
import { describe, expect, it } from 'vitest';
import { API_KEYS } from '../../dev/simulator/seed/catalog.js';
import { findSecrets } from '../support/log-scan/secrets.js';

describe('the log scan', () => {
  it.each([
    ['a Slack token', 'auth failed {"token":"xoxb-123-abc"}'],
    ['a Slack app token', 'socket: xapp-1-A0-123'],
    ['a payment API key', `request apikey=${API_KEYS.full}`],
    ['a password in a URL', 'connecting to postgres://bot:s3cret@db:5432/treasury'],
    ['a TOTP enrolment URI', 'otpauth://totp/Treasury:avery?secret=JBSWY3DPEHPK3PXP'],
    ['a signing secret', 'signed with local-stack-signing-secret'],
  ])('finds %s', (kind, line) => {
    const found = findSecrets(line);
    expect(found.map((f) => f.kind)).toContain(kind);
    expect(found[0]!.line).not.toContain(line.split(' ').at(-1));
  });

  it.each([
    'DATABASE_URL: expected a PostgreSQL URL such as postgres://user:password@host:5432/treasury',
    'connecting to postgres://bot:[REDACTED]@db:5432/treasury',
    'enrolment DM sent with otpauth://[REDACTED]',
    'SLACK_BOT_TOKEN must be a bot token (xoxb-…)',
    'SLACK_SIGNING_SECRET is not set',
  ])('flags nothing in %s', (line) => {
    expect(findSecrets(line)).toEqual([]);
  });
});
