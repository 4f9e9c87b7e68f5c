import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyFailure, takeFailure } from './failures.js';
import { sendText } from './http.js';
import type { SlackState } from './state.js';
import type { UploadedFile } from './types.js';

/** Where a completed file's bytes are served (Slack's `files-pri/<team>-<file>/<name>`). */
export function urlPrivateOf(state: SlackState, upload: UploadedFile): string {
  return `${state.baseUrl}/files-pri/${state.teamId}-${upload.id}/${encodeURIComponent(upload.filename)}`;
}

/**
 * Takes the bytes posted to an upload URL of files.getUploadURLExternal. An upload URL takes the file's bytes once,
 * raw or as a multipart form (the first file part), as the reference says; Slack answers 200 when it took them
 * ("a non-200 response indicates a failure"). The stand-in holds the bytes to the declared `length` (400 otherwise:
 * Slack would keep a broken file) and refuses a second upload to the same URL (409) and an upload after completing
 * (404).
 */
export async function handleUpload(
  state: SlackState,
  path: string,
  req: IncomingMessage,
  raw: Buffer,
  res: ServerResponse,
): Promise<void> {
  const upload = [...state.uploads.values()].find((candidate) => new URL(candidate.uploadUrl).pathname === path);
  if (upload === undefined || upload.completed) return sendText(res, 404, 'upload not found');
  const failure = takeFailure(state, 'upload_url');
  if (failure !== undefined && !(await applyFailure(state, failure, res))) return;
  if (upload.bytes !== undefined) return sendText(res, 409, 'file already uploaded');
  let bytes = raw;
  if ((req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': req.headers['content-type'] ?? '' } })
      .formData()
      .catch(() => undefined);
    const part = form === undefined ? undefined : [...form.values()].find((value) => typeof value !== 'string');
    if (part === undefined || typeof part === 'string') return sendText(res, 400, 'no file in the form');
    bytes = Buffer.from(await part.arrayBuffer());
  }
  if (bytes.length !== upload.length)
    return sendText(res, 400, `length mismatch: declared ${upload.length} bytes, received ${bytes.length}`);
  upload.bytes = bytes;
  state.changed();
  sendText(res, 200, `OK - ${bytes.length}`);
}

/**
 * Serves a completed file's bytes at its url_private. Slack wants the bot token in the Authorization header, or the
 * session of a signed-in client (the local workspace's page is one): a token that is not the bot's is refused.
 */
export function handleFileDownload(state: SlackState, path: string, req: IncomingMessage, res: ServerResponse): void {
  const upload = [...state.uploads.values()].find(
    (candidate) => new URL(urlPrivateOf(state, candidate)).pathname === path,
  );
  if (upload === undefined || !upload.completed || upload.deleted === true || upload.bytes === undefined) {
    sendText(res, 404, 'file not found');
    return;
  }
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const botToken = state.options.botToken;
  if (bearer !== undefined && botToken !== undefined && bearer !== botToken) {
    sendText(res, 403, 'invalid_auth');
    return;
  }
  const type = fileTypeOf(upload.filename);
  res.writeHead(200, {
    'content-type': type.mimetype,
    'content-length': String(upload.bytes.length),
    // Only images are shown in place; anything else downloads, so no file of the bot's runs as a page here.
    'content-disposition': `${type.mimetype.startsWith('image/') ? 'inline' : 'attachment'}; filename="${upload.filename.replace(/[^\w.-]/g, '_')}"`,
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, max-age=3600',
  });
  res.end(upload.bytes);
}

/** A file's type as Slack names it, by the filename's extension (a few kinds; anything else is binary). */
export function fileTypeOf(filename: string): { mimetype: string; filetype: string; prettyType: string } {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  return FILE_TYPES[extension] ?? { mimetype: 'application/octet-stream', filetype: 'binary', prettyType: 'Binary' };
}

const FILE_TYPES: Record<string, { mimetype: string; filetype: string; prettyType: string }> = {
  png: { mimetype: 'image/png', filetype: 'png', prettyType: 'PNG' },
  jpg: { mimetype: 'image/jpeg', filetype: 'jpg', prettyType: 'JPEG' },
  jpeg: { mimetype: 'image/jpeg', filetype: 'jpg', prettyType: 'JPEG' },
  gif: { mimetype: 'image/gif', filetype: 'gif', prettyType: 'GIF' },
  txt: { mimetype: 'text/plain', filetype: 'text', prettyType: 'Plain Text' },
  csv: { mimetype: 'text/csv', filetype: 'csv', prettyType: 'CSV' },
  json: { mimetype: 'application/json', filetype: 'json', prettyType: 'JSON' },
  pdf: { mimetype: 'application/pdf', filetype: 'pdf', prettyType: 'PDF' },
};

/** A PNG's width and height from its IHDR chunk; undefined when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) return undefined;
  if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
