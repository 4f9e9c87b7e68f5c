/**
 * The local workspace's web server (loopback only): the page (dev/workspace/page), its JSON API and a
 * Server-Sent Events stream that tells the page when the timeline (its messages, or a person's modals) changed.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { Logger } from '../../src/logger.js';
import type { Control } from './controls.js';
import type { Timeline } from './timeline.js';

/** The page's ES modules (page/*.js): browsers run a module only when it is served as JavaScript. */
const PAGE_MODULES = [
  'app.js',
  'api.js',
  'blocks.js',
  'dates.js',
  'dom.js',
  'emoji.js',
  'html.js',
  'live.js',
  'modal.js',
  'mrkdwn.js',
];
/** Everything served from disk, by exact path: nothing else in page/ (or above it) is ever read. */
const PAGE_FILES: ReadonlyMap<string, { file: string; type: string }> = new Map([
  ['/', { file: 'index.html', type: 'text/html; charset=utf-8' }],
  ['/style.css', { file: 'style.css', type: 'text/css; charset=utf-8' }],
  ...PAGE_MODULES.map((file): [string, { file: string; type: string }] => [
    `/${file}`,
    { file, type: 'text/javascript; charset=utf-8' },
  ]),
]);
const PAGE_DIR = new URL('./page/', import.meta.url);
const MAX_BODY_BYTES = 64 * 1024;

const CommandRequest = z.object({
  user: z.string().min(1).max(64),
  channel: z.string().min(1).max(64),
  text: z.string().min(1).max(4_000),
});
const ActionRequest = z.object({
  user: z.string().min(1).max(64),
  entryId: z.string().min(1).max(64),
  blockId: z.string().max(255),
  actionId: z.string().min(1).max(255),
  value: z.string().max(2_000).optional(),
  /** An option chosen in a static menu: its value. */
  selectedValue: z.string().max(150).optional(),
  /** The control is in this attachment of the message (1 first; a message has at most 100). */
  attachmentId: z.number().int().min(1).max(100).optional(),
});
// What was entered in a modal, by block_id then action_id (a plain-text input takes at most 3,000 characters).
const EnteredValues = z.record(z.string().max(255), z.record(z.string().max(255), z.string().max(3_000).nullable()));
const ViewSubmissionRequest = z.object({
  user: z.string().min(1).max(64),
  viewId: z.string().min(1).max(64),
  values: EnteredValues,
});
const ViewClosedRequest = z.object({
  user: z.string().min(1).max(64),
  viewId: z.string().min(1).max(64),
  values: EnteredValues.optional(),
});

const ViewActionRequest = z.object({
  user: z.string().min(1).max(64),
  viewId: z.string().min(1).max(64),
  blockId: z.string().min(1).max(255),
  actionId: z.string().min(1).max(255),
  trigger: z.enum(['on_enter_pressed', 'on_character_entered']).optional(),
  values: EnteredValues,
});
const ShortcutRequest = z.object({ user: z.string().min(1).max(64), callbackId: z.string().min(1).max(255) });

const HomeOpenedRequest = z.object({ user: z.string().min(1).max(64) });
const HomeActionRequest = z.object({
  user: z.string().min(1).max(64),
  blockId: z.string().max(255),
  actionId: z.string().min(1).max(255),
  value: z.string().max(2_000).optional(),
});

/** A control run: the id of what was picked, for a control that offers choices. */
const ControlRequest = z.object({ choice: z.string().min(1).max(200).optional() });

/** What the page asked for cannot be done (a closed form, an empty required input): answered 400 with the reason. */
export class PageRequestError extends Error {}

export interface WorkspaceServerOptions {
  port: number;
  logger: Logger;
  timeline: Timeline;
  workspace: Record<string, unknown> & { users: Array<{ id: string }> };
  command(request: z.infer<typeof CommandRequest>): Promise<void>;
  action(request: z.infer<typeof ActionRequest>): Promise<void>;
  /** A modal submitted: resolves with the bot's answer (null when empty), which the page acts on. */
  submitView?(request: z.infer<typeof ViewSubmissionRequest>): Promise<unknown>;
  /** A modal closed by the person. */
  closeView?(request: z.infer<typeof ViewClosedRequest>): Promise<void>;
  controls: Control[];
  /** What the bot's /healthz says about its Socket Mode connection (`socket`, `since`, `reconnects`). */
  botConnection?(): Promise<{
    socket?: string | undefined;
    since?: string | undefined;
    reconnects?: number | undefined;
  }>;
  /** Whether a person is in a conversation: the timeline shows them only theirs (a private channel, their own DM). */
  isMember?(userId: string, channelId: string): boolean;
  /** The person's Home tab as the app last published it (the stand-in's), sent with their timeline. */
  homeOf?(userId: string): { id: string; view: Record<string, unknown>; hash: string } | undefined;
  /** The person opened the Home tab (the app hears app_home_opened). */
  openHome?(request: z.infer<typeof HomeOpenedRequest>): Promise<void>;
  /** A button clicked in the person's Home tab. */
  homeAction?(request: z.infer<typeof HomeActionRequest>): Promise<void>;
  /** An element used inside an open modal (a menu chosen, text typed in an input that dispatches). */
  viewAction?(request: z.infer<typeof ViewActionRequest>): Promise<void>;
  /** A global shortcut picked. */
  shortcut?(request: z.infer<typeof ShortcutRequest>): Promise<void>;
}

export interface WorkspaceServer {
  port: number;
  close(): Promise<void>;
}

export async function startWorkspaceServer(options: WorkspaceServerOptions): Promise<WorkspaceServer> {
  const { timeline, logger } = options;
  const streams = new Set<ServerResponse>();
  const unsubscribe = timeline.onChange(() => {
    const data = `event: change\ndata: ${JSON.stringify({ version: timeline.version })}\n\n`;
    for (const stream of streams) stream.write(data);
  });
  // Proxies and browsers drop a silent stream; a comment line every 15 s keeps it open.
  const heartbeat = setInterval(() => {
    for (const stream of streams) stream.write(': keep-alive\n\n');
  }, 15_000);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Loopback is not enough: a web page elsewhere could post here (an Origin of its own) or reach it under
    // another name (DNS rebinding: a Host of its own). Only this machine's own names are answered.
    if (
      !isLocalName(req.headers.host) ||
      (req.headers.origin !== undefined && !isLocalName(hostOf(req.headers.origin)))
    ) {
      return sendJson(res, 403, { ok: false, error: 'The local workspace answers its own page on localhost only.' });
    }
    const url = new URL(req.url ?? '/', 'http://workspace');
    const page = PAGE_FILES.get(url.pathname);
    if (req.method === 'GET' && page) {
      const body = await readFile(new URL(page.file, PAGE_DIR));
      res.writeHead(200, { 'content-type': page.type, 'cache-control': 'no-store' });
      res.end(body);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/workspace') return sendJson(res, 200, options.workspace);
    if (req.method === 'GET' && url.pathname === '/api/timeline') {
      const user = url.searchParams.get('user') ?? '';
      const entries = timeline.visibleTo(user).filter((entry) => options.isMember?.(user, entry.channel) ?? true);
      // The person's open modals, bottom of the stack first: the page shows the last one over everything.
      const modals = timeline.modalsOf(user).map(({ id, view, hash }) => ({ id, view, hash }));
      // Their Home tab, as published (null before the app published one).
      const held = options.homeOf?.(user);
      const home = held ? { id: held.id, view: held.view, hash: held.hash } : null;
      return sendJson(res, 200, { version: timeline.version, entries, modals, home });
    }
    if (req.method === 'GET' && url.pathname === '/api/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`event: change\ndata: ${JSON.stringify({ version: timeline.version })}\n\n`);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/controls') {
      return sendJson(
        res,
        200,
        options.controls.map(({ id, label, description, group, choices }) => ({
          id,
          label,
          description,
          group,
          // What there is to pick now (pending rows, say): asked for again whenever the page opens the menu.
          ...(choices ? { choices: choices() } : {}),
        })),
      );
    }
    if (req.method === 'POST' && url.pathname.startsWith('/api/controls/')) {
      const control = options.controls.find((c) => c.id === url.pathname.slice('/api/controls/'.length));
      if (!control) return sendJson(res, 404, { ok: false, message: 'No such control.' });
      const picked = ControlRequest.safeParse((await readJson(req)) ?? {});
      if (!picked.success) return sendJson(res, 400, { ok: false, message: 'The page sent a choice it cannot read.' });
      try {
        return sendJson(res, 200, { ok: true, message: await control.run(picked.data.choice) });
      } catch (error) {
        // A control that cannot act now (no connection to drop) says why; the page shows it.
        return sendJson(res, 409, { ok: false, message: error instanceof Error ? error.message : String(error) });
      }
    }
    if (req.method === 'GET' && url.pathname === '/api/bot-connection') {
      if (!options.botConnection)
        return sendJson(res, 404, {
          ok: false,
          error: 'The bot runs in HTTP mode: it has no connection to Slack to show.',
        });
      try {
        return sendJson(res, 200, { ok: true, ...(await options.botConnection()) });
      } catch (error) {
        logger.debug('workspace: the bot did not answer /healthz', {
          error: error instanceof Error ? error.message : String(error),
        });
        return sendJson(res, 200, { ok: false, error: 'The bot does not answer /healthz.' });
      }
    }
    const submitView = options.submitView;
    if (req.method === 'POST' && url.pathname === '/api/view-submission' && submitView) {
      return answerPage(res, ViewSubmissionRequest, await readJson(req), async (request) => ({
        // The bot's answer, as Slack acted on it: null (closed), errors, update, push or clear.
        answer: (await submitView(request)) ?? null,
      }));
    }
    const openHome = options.openHome;
    if (req.method === 'POST' && url.pathname === '/api/home-opened' && openHome) {
      return answerPage(res, HomeOpenedRequest, await readJson(req), async (request) => {
        await openHome(request);
        return {};
      });
    }
    const homeAction = options.homeAction;
    if (req.method === 'POST' && url.pathname === '/api/home-action' && homeAction) {
      return answerPage(res, HomeActionRequest, await readJson(req), async (request) => {
        await homeAction(request);
        return {};
      });
    }
    const viewAction = options.viewAction;
    if (req.method === 'POST' && url.pathname === '/api/view-action' && viewAction) {
      return answerPage(res, ViewActionRequest, await readJson(req), async (request) => {
        await viewAction(request);
        return {};
      });
    }
    const shortcut = options.shortcut;
    if (req.method === 'POST' && url.pathname === '/api/shortcut' && shortcut) {
      return answerPage(res, ShortcutRequest, await readJson(req), async (request) => {
        await shortcut(request);
        return {};
      });
    }
    const closeView = options.closeView;
    if (req.method === 'POST' && url.pathname === '/api/view-closed' && closeView) {
      return answerPage(res, ViewClosedRequest, await readJson(req), async (request) => {
        await closeView(request);
        return {};
      });
    }
    if (req.method === 'POST' && (url.pathname === '/api/command' || url.pathname === '/api/action')) {
      const parsed = (url.pathname === '/api/command' ? CommandRequest : ActionRequest).safeParse(await readJson(req));
      if (!parsed.success)
        return sendJson(res, 400, {
          ok: false,
          error: 'The page sent a request the workspace cannot read; reload the page.',
        });
      try {
        if (url.pathname === '/api/command') await options.command(parsed.data as z.infer<typeof CommandRequest>);
        else await options.action(parsed.data as z.infer<typeof ActionRequest>);
        return sendJson(res, 200, { ok: true });
      } catch (error) {
        if (error instanceof PageRequestError) return sendJson(res, 400, { ok: false, error: error.message });
        logger.warn('workspace: a request to the bot failed', {
          error: error instanceof Error ? error.message : String(error),
        });
        return sendJson(res, 502, {
          ok: false,
          error: `The bot did not take it: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
    sendJson(res, 404, { ok: false, error: 'Not found' });
  };

  /** Reads the page's request, runs it, and answers `{ ok: true, …result }`, 400 with the reason, or 502. */
  const answerPage = async <T>(
    res: ServerResponse,
    schema: z.ZodType<T>,
    body: unknown,
    run: (request: T) => Promise<Record<string, unknown>>,
  ): Promise<void> => {
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      return sendJson(res, 400, {
        ok: false,
        error: 'The page sent a request the workspace cannot read; reload the page.',
      });
    try {
      return sendJson(res, 200, { ok: true, ...(await run(parsed.data)) });
    } catch (error) {
      if (error instanceof PageRequestError) return sendJson(res, 400, { ok: false, error: error.message });
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn('workspace: a request to the bot failed', { error: reason });
      return sendJson(res, 502, { ok: false, error: `The bot did not take it: ${reason}` });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error('workspace: request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'The workspace had a problem; see the terminal.' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${options.port} is already in use (another local workspace?). Stop it, or set PORT to a free port.`,
            )
          : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        clearInterval(heartbeat);
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `localhost[:port]`, `127.0.0.1[:port]` or `[::1][:port]`. */
function isLocalName(host: string | undefined): boolean {
  if (host === undefined) return false;
  return LOCAL_NAMES.has(host.replace(/:\d+$/, '').toLowerCase());
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
