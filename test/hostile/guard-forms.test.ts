// The guard judges most forms by their key names alone (a cheap path on every request). That verdict must be
// the one a full parse gives, for any form: checked against querystring.parse on generated forms.

import { parse as parseQueryString } from 'node:querystring';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isObjectBody } from '../../src/slack/http-guard.js';

const FORM = 'application/x-www-form-urlencoded';
const ROUTABLE_KEYS = ['event', 'command', 'name', 'actions', 'ssl_check'];
const ROUTABLE_TYPES = [
  'url_verification',
  'block_suggestion',
  'dialog_submission',
  'shortcut',
  'message_action',
  'view_submission',
  'view_closed',
];

/** What Bolt will make of the form, read the slow way: every pair parsed, the payload decoded as JSON. */
function fullVerdict(text: string): boolean {
  const form = parseQueryString(text);
  let body: unknown = form;
  if (form.payload !== undefined) {
    try {
      body = typeof form.payload === 'string' ? JSON.parse(form.payload) : undefined;
    } catch {
      body = undefined;
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  return ROUTABLE_KEYS.some((key) => record[key] !== undefined) || ROUTABLE_TYPES.includes(record.type as string);
}

const key = fc.oneof(
  fc.constantFrom('payload', 'type', 'command', 'text', 'user_id', 'ssl_check', 'actions', 'event', 'token'),
  fc.string({ maxLength: 8 }),
);
const jsonish = fc.oneof(
  fc.json(),
  fc.constantFrom(
    '{"type":"block_actions","actions":[]}',
    '{"type":"shortcut"}',
    'null',
    '[]',
    '{"event":{}}',
    '{"name":"x"}',
  ),
);
const value = fc.oneof(
  fc.string({ maxLength: 20 }),
  jsonish,
  fc.constantFrom('', 'shortcut', 'view_submission', '%7B%7D', '%zz', '+'),
);
const pair = fc.tuple(key, value, fc.boolean(), fc.boolean()).map(([k, v, encode, noEquals]) => {
  const name = encode ? encodeURIComponent(k) : k;
  if (noEquals) return name;
  return `${name}=${encode ? encodeURIComponent(v) : v.replace(/[&=]/g, '')}`;
});
const form = fc.array(pair, { maxLength: 8 }).map((pairs) => pairs.join('&'));

describe('the guard reads a form as a full parse would', () => {
  it('gives the same verdict as parsing every pair, on 5,000 generated forms', () => {
    fc.assert(
      fc.property(form, (text) => {
        expect(isObjectBody(FORM, Buffer.from(text))).toBe(fullVerdict(text));
      }),
      { numRuns: 5_000, seed: 20261123 },
    );
  });
});
