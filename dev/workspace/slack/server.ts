import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authMethods } from './auth.js';
import { chatMethods } from './chat.js';
import { conversationsMethods } from './conversations.js';
import { applyFailure, takeFailure } from './failures.js';
import { handleFileDownload, handleUpload } from './file-bytes.js';
import { filesMethods } from './files.js';
import { parseBody, readBody, sendJson, sleep } from './http.js';
import { handleResponseUrl } from './response-urls.js';
import type { SlackState } from './state.js';
import type { Args, MethodHandler } from './types.js';
import { usergroupsMethods } from './usergroups.js';
import { asString } from './values.js';
import { homeRateLimited, viewsMethods } from './views.js';

/** The stand-in's HTTP server, listening. */
export interface SlackServer {
  readonly port: number;
  /** `http://host:port`, without a trailing slash. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * Serves the Web API (`/api/<method>`), response_urls, upload URLs and url_private on `host` (127.0.0.1 unless
 * given) and a free port unless given; sets the state's baseUrl once it listens.
 */
export async function listenSlackServer(state: SlackState): Promise<SlackServer> {
  const { options } = state;
  const host = options.host ?? '127.0.0.1';
  const methods: Record<string, MethodHandler> = {
    ...authMethods(state),
    ...chatMethods(state),
    ...conversationsMethods(state),
    ...viewsMethods(state),
    ...usergroupsMethods(state),
    ...filesMethods(state),
  };
  const handleApi = (method: string, req: IncomingMessage, raw: Buffer, res: ServerResponse) =>
    answerApiCall(state, methods, method, req, raw, res);

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const raw = await readBody(req);
      if (req.method === 'POST' && path.startsWith('/api/')) {
        await handleApi(decodeURIComponent(path.slice('/api/'.length)), req, raw, res);
      } else if (req.method === 'POST' && path.startsWith('/response/')) {
        await handleResponseUrl(state, `${state.baseUrl}${path}`, req, raw, res);
      } else if (req.method === 'POST' && path.startsWith('/upload/v1/')) {
        await handleUpload(state, path, req, raw, res);
      } else if (req.method === 'GET' && path.startsWith('/files-pri/')) {
        handleFileDownload(state, path, req, res);
      } else {
        sendJson(res, 404, { ok: false, error: 'unknown_method' });
      }
    })().catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, { ok: false, error: String(error) });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  state.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    baseUrl: state.baseUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        state.closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // fetch keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}

/**
 * One Web API call: recorded (without its token), then any injected failure or rate limit, then the token check,
 * then the method's family carries it out (an unknown method answers ok, as a method the bot may call but the
 * stand-in does not model).
 */
async function answerApiCall(
  state: SlackState,
  methods: Record<string, MethodHandler>,
  method: string,
  req: IncomingMessage,
  raw: Buffer,
  res: ServerResponse,
): Promise<void> {
  const { options } = state;
  let args: Args;
  try {
    args = await parseBody(req.headers['content-type'], raw);
  } catch {
    sendJson(res, 200, { ok: false, error: 'invalid_json' });
    return;
  }
  // Slack takes the token from the header or from the body; either way it must never reach the log.
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const token = bearer ?? asString(args.token);
  delete args.token;
  state.calls.push({ method, args, at: state.clock() });
  state.changed();

  const failure = takeFailure(state, method, asString(args.channel), asString(args.text));
  // Slack rates views.publish per person: past the burst it answers 429 `ratelimited` with Retry-After.
  const homeWait = method === 'views.publish' && failure === undefined ? homeRateLimited(state, args) : undefined;
  if (homeWait !== undefined) {
    sendJson(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(homeWait) });
    return;
  }
  // A lost, late or failed answer comes after the work is done; every other failure comes instead of it.
  const lostAnswer =
    failure !== undefined && ('lateAnswerMs' in failure || 'dropAnswer' in failure || 'failAfterWork' in failure)
      ? failure
      : undefined;
  const slowWork = failure !== undefined && 'slowWorkMs' in failure ? failure : undefined;
  if (slowWork !== undefined) await sleep(slowWork.slowWorkMs, state.closing.signal);
  else if (failure !== undefined && lostAnswer === undefined && !(await applyFailure(state, failure, res))) return;

  // apps.connections.open is the one method called with the app-level token.
  const expectedToken = method === 'apps.connections.open' ? options.appToken : options.botToken;
  if (expectedToken !== undefined) {
    if (token === undefined) return sendJson(res, 200, { ok: false, error: 'not_authed' });
    if (token !== expectedToken) return sendJson(res, 200, { ok: false, error: 'invalid_auth' });
  }
  const handler = methods[method];
  const answer = handler !== undefined ? handler(args) : { ok: true };
  if (lostAnswer !== undefined && 'dropAnswer' in lostAnswer) {
    res.socket?.destroy();
    return;
  }
  if (lostAnswer !== undefined && 'lateAnswerMs' in lostAnswer)
    await sleep(lostAnswer.lateAnswerMs, state.closing.signal);
  if (lostAnswer !== undefined && 'failAfterWork' in lostAnswer) {
    const { status, error } = lostAnswer.failAfterWork;
    sendJson(res, status ?? 200, { ok: false, error });
    return;
  }
  sendJson(res, 200, answer);
}
