// The local workspace (`npm start` with no configuration) has step-up on: Avery enrols through the page's request
// path (the page's own /api/command), the DM shows the QR code as a PNG (served to the page as the digest chart is)
// and the otpauth:// URI as text; Avery confirms with a code computed from that URI, and `/treasury 2fa` then says
// enrolled, also after the workspace starts again on the same data dir (the key is kept there, mode 0600).
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { TOTP_KEY_FILE } from '../../dev/workspace/totp-key.js';
import { decodeSlackEntities } from '../../src/kernel/text.js';
import { type LocalWorkspace, startLocalWorkspace } from '../support/rig/local-workspace.js';

const AVERY = 'U0AVERY';
const AVERY_DM = 'D0AVERYBOT';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Entry {
  id: string;
  channel: string;
  text?: string;
  blocks?: unknown[];
  files?: { url_private?: string; mimetype?: string; name?: string; title?: string }[];
}

const dataDir = mkdtempSync(join(tmpdir(), 'workspace-2fa-'));
let workspace: LocalWorkspace | undefined;
afterAll(() => workspace?.close());

/** Types a command in Avery's DM, as the page does. */
async function type(text: string): Promise<void> {
  const sent = await fetch(`${workspace!.url}api/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: AVERY, channel: AVERY_DM, text }),
  });
  expect(sent.status).toBe(200);
}

/** Avery's timeline (what the page shows her), polled until `find` finds an entry. */
async function waitForEntry(find: (entry: Entry) => boolean, what: string): Promise<Entry> {
  const end = Date.now() + 10_000;
  for (;;) {
    const { entries } = (await (await fetch(`${workspace!.url}api/timeline?user=${AVERY}`)).json()) as {
      entries: Entry[];
    };
    const found = entries.find(find);
    if (found) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(entries).slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const shown = (entry: Entry) => JSON.stringify([entry.text ?? '', entry.blocks ?? []]);

describe('the local workspace: Avery enrols a second factor', () => {
  it('enrol → DM with the QR PNG and the URI → confirm with a computed code → enrolled, after a restart too', async () => {
    workspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0, dataDir });
    expect(statSync(join(dataDir, TOTP_KEY_FILE)).mode & 0o777).toBe(0o600);

    await type('/treasury 2fa');
    await waitForEntry((e) => shown(e).includes('$50,000 or more'), 'the step-up threshold in /treasury 2fa');

    await type('/treasury 2fa enroll');
    const dm = await waitForEntry(
      (e) => e.channel === AVERY_DM && (e.text ?? '').includes('otpauth://'),
      'the enrolment DM',
    );
    const qr = await waitForEntry(
      (e) => e.channel === AVERY_DM && (e.files ?? []).some((f) => f.name === 'treasury-bot-second-factor.png'),
      'the QR code',
    );
    await waitForEntry((e) => shown(e).includes('I sent you a direct message with a QR code'), 'the reply');
    const [file] = qr.files!;
    expect(file!.mimetype).toBe('image/png');
    // The page loads the image as a signed-in client does: no token.
    const image = await fetch(file!.url_private!);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const uri = decodeSlackEntities(/otpauth:\/\/totp\/[^\s`]+/.exec(dm.text ?? '')?.[0] ?? '');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Treasury%20bot:U0AVERY\?secret=[A-Z2-7]+&issuer=Treasury%20bot$/);
    const secret = new URL(uri).searchParams.get('secret')!;

    // The workspace's clock is the machine's until someone moves it.
    await type(`/treasury 2fa confirm ${generateSync({ secret, epoch: Math.floor(Date.now() / 1000) })}`);
    const confirmed = await waitForEntry((e) => shown(e).includes('You are enrolled.'), 'the confirmation');
    expect(shown(confirmed)).toContain(
      'The message with your secret and QR code has been deleted; your authenticator app keeps the key.',
    );
    // Gone from Avery's DM, as Slack's client shows a deleted message; the image's link answers 404.
    const { entries } = (await (await fetch(`${workspace!.url}api/timeline?user=${AVERY}`)).json()) as {
      entries: Entry[];
    };
    expect(entries.filter((e) => e.channel === AVERY_DM && (shown(e).includes('otpauth://') || e.files))).toEqual([]);
    expect((await fetch(file!.url_private!)).status).toBe(404);
    await type('/treasury 2fa');
    const state = await waitForEntry((e) => shown(e).includes('You are *enrolled* since'), 'the enrolled state');
    expect(shown(state)).not.toContain(secret);

    await workspace.close();
    workspace = await startLocalWorkspace({ port: 0, activityEverySeconds: 0, dataDir });
    await type('/treasury 2fa');
    await waitForEntry((e) => shown(e).includes('You are *enrolled* since'), 'the enrolled state after a restart');
  }, 60_000);
});
