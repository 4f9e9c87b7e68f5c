/**
 * Posts to the URLs Slack hands out, outside the Web API: a reply to a response_url (over kept-alive connections),
 * and a file's bytes to the upload URL files.getUploadURLExternal gave. Failures are coded errors the classifiers
 * in errors.ts read (ResponseUrlError, FileUploadError).
 */
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { FileUploadError, ResponseUrlError } from './errors.js';
import type { FileOnDisk, Reply } from './gateway-contract.js';

// Replies to response_urls reuse connections (Slack's hooks host is the same for every reply): a reply costs one
// request, not a TCP and TLS handshake as well. node:http is used rather than fetch (which Bolt's respond() uses):
// it costs a fraction of the CPU and memory per request, and replies are the bulk of what the bot sends.
const responseUrlAgents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 1_000, timeout: 15_000, maxSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 1_000, timeout: 15_000 }),
};

/** POSTs a reply to a response_url, as Bolt's respond() does, but over a kept-alive connection and with a timeout. */
export function postToResponseUrl(url: string, reply: Reply, timeoutMs: number): Promise<void> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
  if (transport === undefined)
    return Promise.reject(new Error(`a response_url must be http(s), not ${target.protocol}`));
  const body = Buffer.from(JSON.stringify(reply));
  return new Promise<void>((resolve, reject) => {
    const request = transport.request(
      target,
      {
        method: 'POST',
        agent: responseUrlAgents[target.protocol as 'http:' | 'https:'],
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        // Read the (short) body to the end so the connection can be reused; a refusal names Slack's error in it.
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= 4_096) chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new ResponseUrlError(status, slackErrorIn(Buffer.concat(chunks).toString('utf8'))));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Slack's error name in a response_url's answer (`{"ok":false,"error":"invalid_blocks"}` or the bare name). */
function slackErrorIn(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error.slice(0, 80) : undefined;
  } catch {
    return /^[a-z_]{1,80}$/.test(body.trim()) ? body.trim() : undefined;
  }
}

/** How long the bytes of one file may take to reach Slack's upload URL. */
const FILE_UPLOAD_TIMEOUT_MS = 30_000;

/**
 * POSTs a file's bytes to the upload URL files.getUploadURLExternal gave, raw ("files can be sent as raw bytes or
 * multipart form encoded"); Slack answers 200 when it took them. No token goes with them: the URL itself is the
 * permission.
 */
export async function postToUploadUrl(url: string, bytes: Buffer | FileOnDisk): Promise<void> {
  if (!/^https?:\/\//i.test(url)) throw new Error('Slack answered an upload URL that is not http(s)');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      ...(Buffer.isBuffer(bytes)
        ? { headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(bytes) }
        : {
            // Streamed from disk with its length declared, so a large file never sits in memory whole.
            headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
            body: Readable.toWeb(createReadStream(bytes.path)) as ReadableStream<Uint8Array>,
            duplex: 'half' as const,
          }),
      redirect: 'error',
      signal: AbortSignal.timeout(FILE_UPLOAD_TIMEOUT_MS),
    });
  } catch (error) {
    throw new FileUploadError(undefined, error);
  }
  // Read the short answer to its end, so the connection can be reused.
  await response.text().catch(() => '');
  if (response.status !== 200) throw new FileUploadError(response.status);
}
