/** What counts as a secret in a log line: Slack tokens, the simulator's API keys, URL passwords, TOTP URIs, signing secrets. */
import { API_KEYS } from '../../../dev/simulator/seed/catalog.js';

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each kind of secret and how to find it in a line. */
const SECRET_PATTERNS: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'a Slack token', pattern: /\bxox[abposre]-[A-Za-z0-9][A-Za-z0-9-]*/ },
  { kind: 'a Slack app token', pattern: /\bxapp-[A-Za-z0-9][A-Za-z0-9-]*/ },
  { kind: 'a payment API key', pattern: new RegExp(Object.values(API_KEYS).map(literally).join('|')) },
  {
    kind: 'a password in a URL',
    // The configuration's own example (`postgres://user:password@host…`) is no secret.
    pattern:
      /\b[a-z][a-z0-9+.-]*:\/\/(?!user:password@)[^\s:/@'"`]+:(?!\[REDACTED\]@|\*+@|%5BREDACTED%5D@)[^\s@/'"`]+@/i,
  },
  { kind: 'a TOTP enrolment URI', pattern: /otpauth:\/\/(?!\[REDACTED\])/i },
  { kind: 'a signing secret', pattern: /[a-z0-9-]*signing-secret[a-z0-9-]*/i },
];

/** The secrets found in `text`, each with its kind and the line it is on (the secret itself masked). */
export function findSecrets(text: string): { kind: string; line: string }[] {
  const found: { kind: string; line: string }[] = [];
  for (const line of text.split('\n')) {
    for (const { kind, pattern } of SECRET_PATTERNS) {
      const match = pattern.exec(line);
      if (match) found.push({ kind, line: line.replace(match[0], `<${kind}>`).slice(0, 300) });
    }
  }
  return found;
}
