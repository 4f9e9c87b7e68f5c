// The Home tab in the local workspace, through the server as the page uses it (the browser test drives the page):
// opening Home sends the bot a signed app_home_opened (or an events_api envelope in Socket Mode), the bot publishes
// the person's Home on the stand-in, /api/timeline hands it to the page, and a button in it reaches the bot as a
// click from a `view` container. Links to quote messages point at the page itself.
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';
import { afterTheDailySnapshot, type LocalWorkspace, startLocalWorkspace } from '../support/rig/local-workspace.js';

let workspace: LocalWorkspace | undefined;
afterEach(async () => {
  await workspace?.close();
  workspace = undefined;
});

interface Timeline {
  version: number;
  home: { id: string; hash: string; view: { blocks: unknown[] } } | null;
}

async function api(path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, workspace!.url), {
    ...(body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const timelineOf = async (user: string) => (await api(`/api/timeline?user=${user}`)).body as unknown as Timeline;

describe('the Home tab in the local workspace', () => {
  it.each([
    ['HTTP mode', false],
    ['Socket Mode', true],
  ])(
    '%s: opening Home publishes the person’s Home, the page gets it, and Refresh comes back as a click from the view',
    async (_mode, socketMode) => {
      workspace = await startLocalWorkspace({
        port: 0,
        activityEverySeconds: 0,
        logger: silentLogger,
        socketMode,
        startAt: afterTheDailySnapshot(),
      });
      if (socketMode) await workspace.socket!.waitForConnection();
      // Riley asks for a swap; once Riley is told it is posted (the quote's message is then recorded), Avery (an
      // approver by name) opens Home. Without that wait, Home could be read between Slack's post and its record.
      let rileyTold = false;
      const stopListening = workspace.slack.onEvent((event) => {
        if (event.type === 'response' && JSON.stringify(event).includes('Quote posted in the channel'))
          rileyTold = true;
      });
      expect(
        await api('/api/command', {
          user: 'U0RILEY',
          channel: 'C0TREASURY',
          text: '/treasury swap 1,000 USDT@ETH to USDC@ETH',
        }),
      ).toEqual({ status: 200, body: { ok: true } });
      const quote = await workspace.slack.waitFor(
        () =>
          workspace!.slack
            .messages('C0TREASURY')
            .find((m) => findButtons(m.blocks ?? []).some((b) => b.actionId === 'swap_approve')),
        8_000,
        'the quote message',
      );
      await workspace.slack.waitFor(() => rileyTold || undefined, 8_000, 'Riley told the quote is posted');
      stopListening();
      expect((await timelineOf('U0AVERY')).home).toBeNull();
      expect(await api('/api/home-opened', { user: 'U0AVERY' })).toEqual({ status: 200, body: { ok: true } });
      const home = await workspace.slack.waitFor(
        () => {
          const held = workspace!.slack.homeView('U0AVERY');
          return held && /Waiting for your approval · 1/.test(blocksToText(held.view.blocks as unknown[]))
            ? held
            : undefined;
        },
        8_000,
        'Avery’s Home with the quote',
      );
      const served = (await timelineOf('U0AVERY')).home!;
      expect(served).toEqual({ id: home.id, hash: home.hash, view: home.view });
      // The link opens the quote on this page (chat.getPermalink points at it).
      expect(blocksToText(served.view.blocks)).toContain(
        `<${workspace.url}#archives/C0TREASURY/p${quote.ts.replace('.', '')}|Open the quote to approve or reject>`,
      );
      // The runway, from the thirty days of snapshots the workspace keeps at its first start: the shortest first.
      expect(blocksToText(served.view.blocks)).toMatch(
        /\*Runway\* \(at the outflow of the last 7 days\)\n• USDC@POLYGON: about \d\.\d days at \$[\d,.]+\/day \(7-day outflow/,
      );
      // Riley does not see Avery's Home.
      expect((await timelineOf('U0RILEY')).home).toBeNull();

      const [refresh] = findButtons(served.view.blocks).filter((b) => b.actionId === 'home_refresh');
      expect(
        await api('/api/home-action', {
          user: 'U0AVERY',
          blockId: refresh!.blockId,
          actionId: 'home_refresh',
          value: 'refresh',
        }),
      ).toEqual({ status: 200, body: { ok: true } });
      await workspace.slack.waitFor(
        () => (workspace!.slack.homeView('U0AVERY')?.hash !== home.hash ? true : undefined),
        8_000,
        'Avery’s Home published again',
      );
      // A button the Home does not show cannot be sent.
      expect(await api('/api/home-action', { user: 'U0AVERY', blockId: 'x', actionId: 'swap_approve' })).toMatchObject({
        status: 400,
        body: { ok: false },
      });
    },
  );
});
