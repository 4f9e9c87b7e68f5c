// The daily digest end to end (signed HTTP, the Slack stand-in, the payment API simulator, the clock injected): posted
// once at DIGEST_AT in its zone, words first and the 30-day chart in its thread; not twice across a restart or two
// replicas; a lost answer found in the channel instead of a second post; late (once) after a downtime; a chart that
// fails leaves the digest; `/treasury digest` privately.
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_A_TREASURY_USER } from '../../src/features/access/rules.js';
import { digestKey } from '../../src/features/digest/records.js';
import { storesUnderTest, usePostgres } from '../alerts/rig.js';
import { messageToText } from '../support/rig/blocks-text.js';
import { AVERY, DIGEST_CHANNEL, type DigestRig, SAM, startDigestRig } from './rig.js';

const postgres = usePostgres('digest');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let rig: DigestRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The chart files shared into the thread of `ts`. */
function chartsIn(current: DigestRig, ts: string) {
  return current.slack.uploads().filter((file) => file.completed && file.shares.some((share) => share.threadTs === ts));
}

describe.each(storesUnderTest(postgres))('the daily digest on %s', (_name, store) => {
  it('posts once at 09:00 Berlin time, words first, then the 30-day chart in its thread, and not again', async () => {
    rig = await startDigestRig({ store: await store() });
    rig.setClock('2026-11-24T07:59:00Z'); // 08:59 in Berlin
    await rig.check();
    expect(rig.digests()).toHaveLength(0);

    rig.setClock('2026-11-24T08:00:00Z'); // 09:00 CET
    await rig.check();
    const [digest] = rig.digests();
    expect(rig.digests()).toHaveLength(1);
    const words = messageToText(digest!);
    expect(words).toContain('Daily digest · Tue 24 Nov 2026');
    expect(words).toMatch(/Total balance:\* \$[\d,]+\.\d\d \(no earlier digest to compare with yet\)/);
    expect(words).toContain('Alerts in the last 24 hours:* none.');
    expect(digest!.metadata?.event_payload).toEqual({ key: digestKey('2026-11-24') });

    const [chart] = chartsIn(rig, digest!.ts);
    expect(chart?.bytes?.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(chart!.bytes!.length).toBeGreaterThan(5_000);
    expect(chart!.altTxt).toMatch(/^Line chart of the total USD balance/);
    const record = await rig.replicas[0]!.store.balances.getDigest('2026-11-24');
    expect(record).toMatchObject({ ts: digest!.ts, chart: { state: 'uploaded', fileId: chart!.id } });
    // Posted: the words live in Slack, not in the store.
    expect(record!.message.blocks).toEqual([]);

    rig.setClock('2026-11-24T12:00:00Z');
    await rig.check();
    await rig.check();
    expect(rig.digests()).toHaveLength(1);
    expect(rig.slack.uploads()).toHaveLength(1);

    // The next day compares with this day's snapshot.
    const [asset] = rig.simulator.merchantAssets();
    rig.simulator.setAssetBalance(asset!.id, asset!.balance + 10n ** BigInt(asset!.decimals) * 5n);
    rig.setClock('2026-11-25T08:00:30Z');
    await rig.check();
    expect(rig.digests()).toHaveLength(2);
    const next = messageToText(rig.digests()[1]!);
    expect(next).toContain('since the digest of Tue 24 Nov 2026');
    expect(next).toContain(`+5 ${asset!.symbol}`);
  });

  it('posts a digest missed during a downtime when it comes back the same day, once, and not again after a restart', async () => {
    // The bot was down at 09:00; it is back at 15:00 Berlin time.
    rig = await startDigestRig({ store: await store(), startAt: '2026-11-24T14:00:00Z' });
    await rig.check();
    expect(rig.digests()).toHaveLength(1);
    await rig.restart();
    await rig.check();
    expect(rig.digests()).toHaveLength(1);
    expect(rig.slack.uploads().filter((file) => file.completed)).toHaveLength(1);
    // Past midnight in Berlin it is the next day, whose 09:00 has not come: nothing, not yesterday's again.
    rig.setClock('2026-11-24T23:30:00Z');
    await rig.check();
    expect(rig.digests()).toHaveLength(1);
  });

  it('is posted by the app on its own at start when it is due (its first check), once', async () => {
    rig = await startDigestRig({ store: await store(), startAt: '2026-11-24T10:00:00Z', timer: true });
    const current = rig;
    const [digest] = await current.slack.waitFor(() => (current.digests().length > 0 ? current.digests() : undefined));
    await current.slack.waitFor(() => chartsIn(current, digest!.ts)[0], 10_000, 'the chart in the thread');
    await current.check();
    expect(current.digests()).toHaveLength(1);
  });

  it('finds a digest whose answer was lost in the channel instead of posting it again', async () => {
    rig = await startDigestRig({ store: await store(), startAt: '2026-11-24T08:00:00Z' });
    // Slack posts it, and the connection is cut before its answer.
    rig.slack.failNext('chat.postMessage', { dropAnswer: true }, 1, { channel: DIGEST_CHANNEL });
    await rig.check();
    expect(rig.digests()).toHaveLength(1);
    const pending = await rig.replicas[0]!.store.balances.getDigest('2026-11-24');
    expect(pending?.ts).toBeUndefined();
    expect(pending?.sending?.key).toBe(digestKey('2026-11-24'));

    // A restart in between changes nothing: the mark is in the store.
    await rig.restart();
    rig.setClock('2026-11-24T08:01:00Z');
    await rig.check();
    expect(rig.digests()).toHaveLength(1);
    const [digest] = rig.digests();
    const record = await rig.replicas[0]!.store.balances.getDigest('2026-11-24');
    expect(record).toMatchObject({ ts: digest!.ts });
    expect(record?.sending).toBeUndefined();
    expect(chartsIn(rig, digest!.ts)).toHaveLength(1);
    expect(rig.logs.join('\n')).toContain(
      'a digest whose answer was lost is in the channel; recorded, not posted again',
    );
  });

  it('keeps the digest when the chart cannot be uploaded, says so in its thread, and does not try again', async () => {
    rig = await startDigestRig({ store: await store(), startAt: '2026-11-24T08:00:00Z' });
    rig.slack.failNext('files.completeUploadExternal', { error: 'not_in_channel' });
    await rig.check();
    const [digest] = rig.digests();
    expect(rig.digests()).toHaveLength(1);
    expect(messageToText(digest!)).toContain('Total balance');
    const [note] = rig.thread(digest!.ts);
    expect(messageToText(note!) || note!.text).toContain('The 30-day chart could not be made this time');
    expect(await rig.replicas[0]!.store.balances.getDigest('2026-11-24')).toMatchObject({
      ts: digest!.ts,
      chart: { state: 'failed' },
    });
    rig.setClock('2026-11-24T09:00:00Z');
    await rig.check();
    expect(rig.slack.callsOf('files.completeUploadExternal')).toHaveLength(1);
    expect(rig.thread(digest!.ts)).toHaveLength(1);
  });

  it('shows the same words privately with /treasury digest, and says where the chart is', async () => {
    rig = await startDigestRig({ store: await store() });
    const before = await rig.command('digest', AVERY);
    expect(before.responseType).toBe('ephemeral');
    const words = messageToText({ blocks: before.blocks ?? [] });
    expect(words).toContain('Digest right now · Tue 24 Nov 2026');
    expect(words).toContain('Total balance');
    expect(words).toContain(`is posted at 09:00 Europe/Berlin in <#${DIGEST_CHANNEL}>`);
    expect(rig.digests()).toHaveLength(0); // nothing claimed or posted
    expect(await rig.replicas[0]!.store.balances.getDigest('2026-11-24')).toBeUndefined();

    rig.setClock('2026-11-24T08:00:00Z');
    await rig.check();
    const after = await rig.command('digest', AVERY);
    expect(messageToText({ blocks: after.blocks ?? [] })).toContain(
      `The 30-day chart is in the thread of today's digest in <#${DIGEST_CHANNEL}>`,
    );

    // Only treasury users.
    const refused = await rig.replicas[0]!.driver.command('digest', { userId: SAM, channelId: 'C0DESK' });
    expect(refused.body).toMatchObject({ response_type: 'ephemeral', text: NOT_A_TREASURY_USER });
  });
});

describe.runIf(postgres.available)('the daily digest on two replicas (PostgreSQL)', () => {
  it('is posted once, by the replica that holds the lease, when both check at once', async () => {
    rig = await startDigestRig({
      store: await postgres.database(),
      replicas: ['a', 'b'],
      startAt: '2026-11-24T08:00:00Z',
    });
    await Promise.all([rig.check(0), rig.check(1), rig.check(1), rig.check(0)]);
    await rig.check(1);
    await rig.check(0);
    expect(rig.digests()).toHaveLength(1);
    expect(rig.slack.uploads().filter((file) => file.completed)).toHaveLength(1);
    // The replica that does not hold the lease posts nothing even when the day is still unposted.
    const other = rig.replicas[1]!;
    expect(await other.store.balances.getDigest('2026-11-24')).toMatchObject({ chart: { state: 'uploaded' } });
  });
});
