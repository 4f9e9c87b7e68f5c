import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Args } from './types.js';
import { isRecord } from './values.js';

// The WebClient JSON-encodes every non-scalar argument into a form field; these are the ones Slack decodes.
const JSON_FORM_FIELDS = new Set(['blocks', 'attachments', 'view', 'metadata', 'unfurls', 'user_auth_blocks']);

/** Parses a body as Slack does: form (with JSON-encoded fields), JSON, or multipart. */
export async function parseBody(contentType: string | undefined, raw: Buffer): Promise<Args> {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (raw.length === 0) return {};
  if (type === 'application/json') {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    return isRecord(parsed) ? parsed : { body: parsed };
  }
  if (type === 'multipart/form-data') {
    // Only file uploads use multipart; record file parts by name and size rather than content.
    const form = await new Response(raw, { headers: { 'content-type': contentType ?? '' } }).formData();
    const args: Args = {};
    form.forEach((value, key) => {
      args[key] = typeof value === 'string' ? decodeFormField(key, value) : { filename: value.name, size: value.size };
    });
    return args;
  }
  // The WebClient's default (and Slack's own reading of a body with no content type).
  const args: Args = {};
  for (const [key, value] of Object.entries(parseQueryString(raw.toString('utf8')))) {
    if (value === undefined) continue;
    args[key] = Array.isArray(value) ? value : decodeFormField(key, value);
  }
  return args;
}

function decodeFormField(key: string, value: string): unknown {
  if (!JSON_FORM_FIELDS.has(key)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The whole request body. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Answers with JSON, unless the answer was already sent or the connection is gone. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers with plain text, unless the answer was already sent or the connection is gone. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

/** Waits `ms`, or less when the stand-in closes meanwhile. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
