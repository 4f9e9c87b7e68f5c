// The freeze in the local workspace of `npm start`, with no configuration, through the page's own requests
// (/api/command, /api/action, /api/timeline): Avery (an approver by name) types `/treasury freeze`, the bot announces
// it in #treasury-alerts with Unfreeze, Riley's waiting quote shows FROZEN, and the clicks of Avery and Jordan (an
// admin through @treasury-leads, since TREASURY_ADMINS defaults to the approvers) lift it with the quorum of 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { type LocalWorkspace, startLocalWorkspace } from '../support/rig/local-workspace.js';

const TREASURY = 'C0TREASURY';
const ALERTS = 'C0ALERTS';
const [RILEY, AVERY, JORDAN] = ['U0RILEY', 'U0AVERY', 'U0JORDAN'];

interface Entry {
  id: string;
  channel: string;
  ts: string;
  text?: string;
  blocks?: unknown[];
  ephemeral: boolean;
  userId?: string;
}

let workspace: LocalWorkspace;
beforeAll(async () => {
  workspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0, logger: silentLogger });
}, 30_000);
afterAll(() => workspace?.close());

async function api(path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, workspace.url), {
    ...(body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What `user` sees in `channel` on the page, oldest first. */
async function seen(user: string, channel: string): Promise<Entry[]> {
  const { entries } = (await api(`/api/timeline?user=${user}`)).body as unknown as { entries: Entry[] };
  return entries.filter((entry) => entry.channel === channel);
}

const textOf = (entry: Entry | undefined) => `${entry?.text ?? ''}\n${blocksToText(entry?.blocks ?? [])}`;

/** Waits until `user` sees an entry in `channel` that `match` picks. */
async function waitToSee(user: string, channel: string, match: (entry: Entry) => boolean, what: string) {
  let found: Entry | undefined;
  await expect
    .poll(
      async () => {
        found = (await seen(user, channel)).find(match);
        return found !== undefined;
      },
      { timeout: 10_000, message: what },
    )
    .toBe(true);
  return found!;
}

async function type(user: string, text: string, channel = TREASURY): Promise<void> {
  expect(await api('/api/command', { user, channel, text })).toEqual({ status: 200, body: { ok: true } });
}

/** Clicks Unfreeze on the announcement as `user`, as the page does; resolves with what they are told privately. */
async function unfreeze(user: string, announcement: Entry): Promise<string> {
  const before = (await seen(user, ALERTS)).filter((entry) => entry.ephemeral).length;
  const block = (announcement.blocks as Array<{ block_id?: string; elements?: Array<{ action_id?: string }> }>).find(
    (b) => b.elements?.some((element) => element.action_id === 'freeze_unfreeze'),
  );
  const button = findButtons(announcement.blocks ?? []).find((b) => b.actionId === 'freeze_unfreeze')!;
  const click = await api('/api/action', {
    user,
    entryId: announcement.id,
    blockId: block?.block_id ?? '',
    actionId: 'freeze_unfreeze',
    value: button.value,
  });
  expect(click).toEqual({ status: 200, body: { ok: true } });
  let told = '';
  await expect
    .poll(
      async () => {
        const mine = (await seen(user, ALERTS)).filter((entry) => entry.ephemeral && entry.userId === user);
        told = mine.length > before ? textOf(mine.at(-1)) : '';
        return told !== '';
      },
      { timeout: 10_000, message: `what ${user} is told` },
    )
    .toBe(true);
  return told;
}

describe('the freeze in the local workspace', () => {
  it('Avery freezes, #treasury-alerts shows Unfreeze, the quote shows FROZEN; Avery and Jordan lift it', async () => {
    await type(RILEY, '/treasury swap 1,000 USDT@ETH to USDC@ETH');
    const quote = await waitToSee(
      RILEY,
      TREASURY,
      (entry) => findButtons(entry.blocks ?? []).some((b) => b.actionId === 'swap_approve'),
      'the quote',
    );
    const quoteText = async () => textOf((await seen(RILEY, TREASURY)).find((entry) => entry.id === quote.id));
    expect(await quoteText()).not.toContain('FROZEN');

    await type(AVERY, '/treasury freeze leaked token');
    const announcement = await waitToSee(
      JORDAN,
      ALERTS,
      (entry) => !entry.ephemeral && textOf(entry).includes('Money is frozen by <@U0AVERY>'),
      'the announcement',
    );
    expect(textOf(announcement)).toContain('leaked token');
    expect(textOf(announcement)).toContain('needs 2 distinct admins');
    expect(findButtons(announcement.blocks ?? []).map((b) => b.text)).toEqual(['Unfreeze']);
    await expect.poll(quoteText, { timeout: 10_000 }).toContain('*FROZEN*: money is frozen by <@U0AVERY>');

    // Riley, on the team but neither approver nor admin, sees the state and cannot lift it.
    await type(RILEY, '/treasury freeze');
    await waitToSee(RILEY, TREASURY, (e) => e.ephemeral && textOf(e).includes('Money is frozen by'), 'the state');

    expect(await unfreeze(AVERY, announcement)).toContain('Your vote is recorded (1 of 2)');
    expect(await unfreeze(JORDAN, announcement)).toContain('Your vote lifted the freeze (2 of 2)');
    await waitToSee(
      RILEY,
      ALERTS,
      (e) => textOf(e).includes('The freeze is lifted by <@U0AVERY>, <@U0JORDAN>'),
      'line',
    );
    await expect
      .poll(async () => textOf((await seen(JORDAN, ALERTS)).find((entry) => entry.id === announcement.id)), {
        timeout: 10_000,
      })
      .toContain('Lifted by <@U0AVERY>, <@U0JORDAN>');
    await expect.poll(quoteText, { timeout: 10_000 }).not.toContain('FROZEN');
  });

  it('a freeze with --for: the clock moved past it, the job edits the announcement and says it ended', async () => {
    await type(AVERY, '/treasury freeze maintenance window --for 30m');
    const announcement = await waitToSee(
      AVERY,
      ALERTS,
      (entry) => !entry.ephemeral && textOf(entry).includes('_maintenance window_') && !entry.text?.includes('ended'),
      'the announcement',
    );
    expect(findButtons(announcement.blocks ?? []).map((b) => b.text)).toEqual(['Unfreeze']);
    expect((await api('/api/controls/clock-31m', {})).body).toMatchObject({ ok: true });
    // The expiry job runs every 15 s on its own timer.
    await expect
      .poll(async () => textOf((await seen(JORDAN, ALERTS)).find((entry) => entry.id === announcement.id)), {
        timeout: 25_000,
        interval: 250,
      })
      .toContain('ended by itself at');
    const edited = (await seen(JORDAN, ALERTS)).find((entry) => entry.id === announcement.id);
    expect(findButtons(edited?.blocks ?? [])).toEqual([]);
    const lines = (await seen(JORDAN, ALERTS)).filter(
      (entry) => entry.id !== announcement.id && textOf(entry).includes('(_maintenance window_) ended by itself'),
    );
    expect(lines).toHaveLength(1);
    await type(RILEY, '/treasury freeze');
    await waitToSee(RILEY, TREASURY, (e) => e.ephemeral && textOf(e).includes('Nothing is frozen'), 'the state');
  }, 40_000);
});
