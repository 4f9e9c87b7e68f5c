// The local workspace (`npm start` with no configuration): Riley enrols through the page's request path, then Avery
// (a treasury admin there: TREASURY_ADMINS defaults to the swap approvers) types `/treasury 2fa reset @riley`. The
// page gets the picker Slack would show (a users_select), and its submissions reach the bot as Slack's
// view_submission with `selected_user`: nobody chosen is refused by the client, Sam (never enrolled) is an error
// under the menu, Riley closes the picker and resets her; she is told by DM, and Avery gets the confirmation.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { VIEW_IDS } from '../../src/blocks/ids.js';
import { RESET_PERSON } from '../../src/features/second-factor/blocks.js';
import { decodeSlackEntities } from '../../src/kernel/text.js';
import { type LocalWorkspace, startLocalWorkspace } from '../support/rig/local-workspace.js';

const AVERY = 'U0AVERY';
const RILEY = 'U0RILEY';
const SAM = 'U0SAM';
const dmOf = (name: string) => `D0${name.toUpperCase()}BOT`;

interface Entry {
  id: string;
  channel: string;
  text?: string;
  blocks?: unknown[];
}
interface Modal {
  id: string;
  view: Record<string, unknown>;
}

let workspace: LocalWorkspace | undefined;
afterAll(() => workspace?.close());

/** A request of the page (/api/…), as JSON. */
async function page(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${workspace!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Types a command in the person's DM with the bot, as the page does. */
async function type(user: string, name: string, text: string): Promise<void> {
  expect((await page('api/command', { user, channel: dmOf(name), text })).status).toBe(200);
}

/** What the page shows `user` (its timeline and open modals), polled until `find` finds something. */
async function waitFor<T>(user: string, find: (seen: { entries: Entry[]; modals: Modal[] }) => T | undefined) {
  const end = Date.now() + 10_000;
  for (;;) {
    const seen = (await (await fetch(`${workspace!.url}api/timeline?user=${user}`)).json()) as {
      entries: Entry[];
      modals: Modal[];
    };
    const found = find(seen);
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(seen).slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const shown = (entry: Entry) => JSON.stringify([entry.text ?? '', entry.blocks ?? []]);
const entryWith = (user: string, words: string) =>
  waitFor(user, ({ entries }) => entries.find((e) => shown(e).includes(words)));
const pick = (person: string) => ({ [RESET_PERSON.blockId]: { [RESET_PERSON.actionId]: person } });

describe('the local workspace: an admin resets a second factor with the person picker', () => {
  it('`/treasury 2fa reset @riley` opens the picker; nobody, Sam, then Riley', async () => {
    workspace = await startLocalWorkspace({
      port: 0,
      activityEverySeconds: 0,
      dataDir: mkdtempSync(join(tmpdir(), 'workspace-2fa-reset-')),
    });

    // Riley enrols.
    await type(RILEY, 'riley', '/treasury 2fa enroll');
    const dm = await waitFor(RILEY, ({ entries }) =>
      entries.find((e) => e.channel === dmOf('riley') && (e.text ?? '').includes('otpauth://')),
    );
    const uri = decodeSlackEntities(/otpauth:\/\/totp\/[^\s`]+/.exec(dm.text ?? '')?.[0] ?? '');
    const secret = new URL(uri).searchParams.get('secret')!;
    await type(
      RILEY,
      'riley',
      `/treasury 2fa confirm ${generateSync({ secret, epoch: Math.floor(Date.now() / 1000) })}`,
    );
    await entryWith(RILEY, 'You are enrolled.');

    // Avery's typed @riley reaches the bot as text: the picker opens for her (and nobody else).
    await type(AVERY, 'avery', '/treasury 2fa reset @riley');
    const picker = await waitFor(AVERY, ({ modals }) =>
      modals.find((m) => m.view.callback_id === VIEW_IDS.secondFactorReset),
    );
    expect(JSON.stringify(picker.view)).toContain('"type":"users_select"');
    expect(await waitFor(RILEY, ({ modals }) => modals)).toEqual([]);

    // Nobody chosen: Slack's client does not send it.
    expect(await page('api/view-submission', { user: AVERY, viewId: picker.id, values: pick('') })).toEqual({
      status: 400,
      body: { ok: false, error: 'Please fill in: Whose second factor.' },
    });
    // Someone the workspace does not have: the menu cannot choose them.
    expect(
      (await page('api/view-submission', { user: AVERY, viewId: picker.id, values: pick('U0NOBODY') })).status,
    ).toBe(400);
    // Sam never enrolled: an error under the menu, and the picker stays open.
    expect(await page('api/view-submission', { user: AVERY, viewId: picker.id, values: pick(SAM) })).toEqual({
      status: 200,
      body: {
        ok: true,
        answer: {
          response_action: 'errors',
          errors: { [RESET_PERSON.blockId]: 'That person has no second factor: nothing to reset.' },
        },
      },
    });
    // Riley: the picker closes, she is reset and told, Avery gets the confirmation.
    expect(await page('api/view-submission', { user: AVERY, viewId: picker.id, values: pick(RILEY) })).toEqual({
      status: 200,
      body: { ok: true, answer: null },
    });
    expect(await waitFor(AVERY, ({ modals }) => modals)).toEqual([]);
    await entryWith(RILEY, 'reset your second factor');
    await entryWith(AVERY, 'second factor is reset (it was enrolled)');
    await type(RILEY, 'riley', '/treasury 2fa');
    await entryWith(RILEY, 'You are *not enrolled*');
  }, 60_000);
});
