import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Logger } from './logger.js';

/** Slack's requests are small; anything larger is refused before it is read into memory. */
export const MAX_SLACK_BODY_BYTES = 1024 * 1024;

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
          logger.warn('refused a request that is not a Slack request Bolt can route', { path: req.url?.split('?')[0], bytes: raw.length });
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
function isObjectBody(contentType: string | undefined, raw: Buffer): boolean {
  const text = raw.toString('utf8');
  let body: unknown;
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = parseQueryString(text);
    body = form.payload === undefined ? form : typeof form.payload === 'string' ? parseJson(form.payload) : undefined;
  } else {
    // Bolt parses every other content type as JSON.
    body = parseJson(text);
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body) && isRoutable(body as Record<string, unknown>);
}

// Slack's requests are all of these kinds. Bolt leaves any other body unanswered for 3 s and then says 404,
// so it is refused here at once instead.
const ROUTABLE_KEYS = ['event', 'command', 'name', 'actions', 'ssl_check'];
const ROUTABLE_TYPES = ['url_verification', 'block_suggestion', 'dialog_submission', 'shortcut', 'message_action', 'view_submission', 'view_closed'];
function isRoutable(body: Record<string, unknown>): boolean {
  return ROUTABLE_KEYS.some((key) => body[key] !== undefined) || ROUTABLE_TYPES.includes(body.type as string);
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
