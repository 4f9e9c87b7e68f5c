// The local workspace (`npm start` with no configuration, step-up on at $50,000) through the page's own requests
// (/api/*): Riley asks for a $60,000 swap in #treasury; Avery enrols by DM and computes codes from the URI as her
// authenticator app would; her Approve opens the "Approve with a code" modal for her alone; a wrong code shows under
// the input; the right one closes it and the quote says she approved with a code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeSlackEntities } from '../../../src/kernel/text.js';
import { type LocalWorkspace, startLocalWorkspace } from '../../support/rig/local-workspace.js';

const RILEY = 'U0RILEY';
const AVERY = 'U0AVERY';
const AVERY_DM = 'D0AVERYBOT';
const JORDAN = 'U0JORDAN';
const ALERTS = 'C0ALERTS';
const CHANNEL = 'C0TREASURY';

interface Entry {
  id: string;
  channel: string;
  text?: string;
  blocks?: Record<string, unknown>[];
}
interface Modal {
  id: string;
  view: { callback_id?: string; title?: { text?: string }; blocks?: unknown[] };
}

let workspace: LocalWorkspace | undefined;
afterAll(() => workspace?.close());

async function post(path: string, body: unknown): Promise<unknown> {
  const sent = await fetch(`${workspace!.url}api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await sent.text();
  expect(sent.status, text).toBe(200);
  return text === '' ? null : JSON.parse(text);
}

async function timeline(user: string): Promise<{ entries: Entry[]; modals: Modal[] }> {
  return (await (await fetch(`${workspace!.url}api/timeline?user=${user}`)).json()) as {
    entries: Entry[];
    modals: Modal[];
  };
}

/** Polls `user`'s page until `find` finds something in it. */
async function waitFor<T>(
  user: string,
  find: (page: { entries: Entry[]; modals: Modal[] }) => T | undefined,
  what: string,
) {
  const end = Date.now() + 10_000;
  for (;;) {
    const found = find(await timeline(user));
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const shown = (entry: Entry) => JSON.stringify([entry.text ?? '', entry.blocks ?? []]);
const codeAt = (secret: string) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) });

describe('the local workspace: a large swap approved with a code', () => {
  it('enrol, Approve opens the code modal, a wrong code is shown under it, the right one approves', async () => {
    workspace = await startLocalWorkspace({
      port: 0,
      activityEverySeconds: 0,
      dataDir: mkdtempSync(join(tmpdir(), 'workspace-step-up-')),
    });

    await post('command', { user: AVERY, channel: AVERY_DM, text: '/treasury 2fa enroll' });
    const dm = await waitFor(
      AVERY,
      (p) => p.entries.find((e) => e.channel === AVERY_DM && (e.text ?? '').includes('otpauth://')),
      'the enrolment DM',
    );
    const uri = decodeSlackEntities(/otpauth:\/\/totp\/[^\s`]+/.exec(dm.text ?? '')![0]);
    const secret = new URL(uri).searchParams.get('secret')!;
    await post('command', { user: AVERY, channel: AVERY_DM, text: `/treasury 2fa confirm ${codeAt(secret)}` });
    await waitFor(AVERY, (p) => p.entries.find((e) => shown(e).includes('You are enrolled.')), 'enrolled');
    // A new enrolment counts once another admin confirms it: Jordan presses Confirm enrolment in #treasury-alerts.
    const announcement = await waitFor(
      JORDAN,
      (p) => p.entries.find((e) => e.channel === ALERTS && shown(e).includes('second_factor_confirm_enrolment')),
      "the announcement of Avery's enrolment",
    );
    const confirmActions = announcement.blocks!.find((b) => b.type === 'actions') as {
      block_id?: string;
      elements: { action_id: string; value: string }[];
    };
    const confirmButton = confirmActions.elements.find((e) => e.action_id === 'second_factor_confirm_enrolment')!;
    await post('action', {
      user: JORDAN,
      entryId: announcement.id,
      // As the page sends it: a block without a block_id is sent as ''.
      blockId: confirmActions.block_id ?? '',
      actionId: confirmButton.action_id,
      value: confirmButton.value,
    });
    await waitFor(
      JORDAN,
      (p) => p.entries.find((e) => shown(e).includes("You confirmed <@U0AVERY>'s new second factor")),
      'the confirmation',
    );

    await post('command', { user: RILEY, channel: CHANNEL, text: '/treasury swap 60,000 USDT@ETH to USDC@ETH' });
    const quote = await waitFor(
      AVERY,
      (p) => p.entries.find((e) => e.channel === CHANNEL && shown(e).includes('swap_approve')),
      'the quote in #treasury',
    );
    const actions = quote.blocks!.find((b) => b.type === 'actions') as {
      block_id: string;
      elements: { action_id: string; value: string }[];
    };
    const approve = actions.elements.find((e) => e.action_id === 'swap_approve')!;
    await post('action', {
      user: AVERY,
      entryId: quote.id,
      blockId: actions.block_id,
      actionId: approve.action_id,
      value: approve.value,
    });
    const modal = await waitFor(
      AVERY,
      (p) => p.modals.find((m) => m.view.callback_id === 'swap_step_up_modal'),
      "Avery's code modal",
    );
    expect(modal.view.title?.text).toBe('Approve with a code');
    expect(JSON.stringify(modal.view.blocks)).toContain('60,000 USDT');
    // Nobody else sees it.
    expect((await timeline(RILEY)).modals).toEqual([]);

    const wrong = (await post('view-submission', {
      user: AVERY,
      viewId: modal.id,
      values: { step_up_code: { code: '000000' } },
    })) as { answer: unknown };
    expect(wrong.answer).toMatchObject({
      response_action: 'errors',
      errors: { step_up_code: expect.stringContaining('That code is not right') },
    });

    // A code of the next time step (the one used to enrol is spent; one step of drift is accepted).
    const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const right = (await post('view-submission', {
      user: AVERY,
      viewId: modal.id,
      values: { step_up_code: { code: next } },
    })) as { answer: unknown };
    expect(right.answer).toBeNull();
    await waitFor(
      RILEY,
      (p) => p.entries.find((e) => e.id === quote.id && /<@U0AVERY>( ✓)? \(with a code\)/.test(shown(e))),
      'the quote approved with a code',
    );
  }, 60_000);
});
