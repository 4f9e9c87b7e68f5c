import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString, unescape as unescapeQueryString } from 'node:querystring';
import type { Logger } from '../logger.js';

/** Slack's requests are small; anything larger is refused before it is read into memory. */
const MAX_SLACK_BODY_BYTES = 1024 * 1024;

/**
 * Sits in front of Bolt's HTTPReceiver. Bolt reads fields of the parsed body before any check of its shape,
 * so a signed body of `null` (JSON, or `payload=null`) throws inside its request handler and, being an
 * unhandled rejection, ends the process. This reads the body once, refuses what is not an object with a
 * plain 400 (as it does anything Slack never sends), and hands the buffered body on (Bolt uses `req.rawBody` when it is already there).
 */
export function guardSlackRequests(next: RequestListener, logger: Logger): RequestListener {
  return (req, res) => {
    void readLimited(req, MAX_SLACK_BODY_BYTES)
      .then((raw) => {
        if (raw === undefined) return refuse(res, 413, 'request body too large');
        if (req.method === 'POST' && !isObjectBody(req.headers['content-type'], raw)) {
          logger.warn('refused a request that is not a Slack request Bolt can route', {
            path: req.url?.split('?')[0],
            bytes: raw.length,
          });
          return refuse(res, 400, 'malformed request body');
        }
        (req as IncomingMessage & { rawBody?: Buffer }).rawBody = raw;
        next(req, res);
      })
      .catch((error: unknown) => {
        logger.warn('could not read a request', { error: error instanceof Error ? error.message : String(error) });
        refuse(res, 400, 'unreadable request');
      });
  };
}

/** True when the body is what Bolt can safely read and route: an object of a kind Slack sends. */
export function isObjectBody(contentType: string | undefined, raw: Buffer): boolean {
  const text = raw.toString('utf8');
  let body: unknown;
  if (contentType === 'application/x-www-form-urlencoded') {
    // Bolt parses the form itself right after this; here only its key names are looked at, when they are plain.
    const quick = plainFormVerdict(text);
    if (quick !== undefined) return quick;
    const form = parseQueryString(text);
    body = form.payload === undefined ? form : typeof form.payload === 'string' ? parseJson(form.payload) : undefined;
  } else {
    // Bolt parses every other content type as JSON.
    body = parseJson(text);
  }
  return (
    typeof body === 'object' && body !== null && !Array.isArray(body) && isRoutable(body as Record<string, unknown>)
  );
}

// Slack's requests are all of these kinds. Bolt leaves any other body unanswered for 3 s and then says 404,
// so it is refused here at once instead.
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
function isRoutable(body: Record<string, unknown>): boolean {
  return ROUTABLE_KEYS.some((key) => body[key] !== undefined) || ROUTABLE_TYPES.includes(body.type as string);
}

// querystring.parse reads at most this many pairs (its default maxKeys, which Bolt uses too).
const QUERYSTRING_MAX_KEYS = 1000;
const PLAIN_KEY = /^[A-Za-z0-9_]+$/;

/**
 * The verdict of {@link isObjectBody} for a form whose keys are all plain words (as every form Slack sends), read
 * from the key names alone: no value is decoded except a `payload` (JSON, checked as Bolt will read it) or a
 * `type`. Plain keys mean exactly what querystring.parse makes of them, so the verdict is the full parse's.
 * Undefined when a key is encoded, empty or unusual, or the form is long: then the caller parses it in full.
 */
function plainFormVerdict(text: string): boolean | undefined {
  const pairs = text.split('&');
  if (pairs.length > QUERYSTRING_MAX_KEYS) return undefined;
  let payloads = 0;
  let payloadValue = '';
  let types = 0;
  let typeValue = '';
  let routableKey = false;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (!PLAIN_KEY.test(key)) return undefined;
    if (key === 'payload') {
      payloads += 1;
      payloadValue = eq === -1 ? '' : pair.slice(eq + 1);
    } else if (key === 'type') {
      types += 1;
      typeValue = eq === -1 ? '' : pair.slice(eq + 1);
    } else if (ROUTABLE_KEYS.includes(key)) {
      routableKey = true;
    }
  }
  // A repeated key is a list to Bolt: a listed payload is not JSON it can read, a listed type routes nowhere.
  if (payloads > 1) return false;
  if (payloads === 1) {
    const body = parseJson(decodeFormValue(payloadValue));
    return (
      typeof body === 'object' && body !== null && !Array.isArray(body) && isRoutable(body as Record<string, unknown>)
    );
  }
  return routableKey || (types === 1 && ROUTABLE_TYPES.includes(decodeFormValue(typeValue)));
}

/** A form value as querystring.parse decodes it ('+' is a space; a malformed escape is kept as is). */
function decodeFormValue(value: string): string {
  return unescapeQueryString(value.replace(/\+/g, ' '));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads the whole body, or resolves undefined (and stops reading) past `limit` bytes. */
function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function refuse(res: ServerResponse, status: number, reason: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(reason);
}
