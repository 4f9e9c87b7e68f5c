// The dead-man's switch through the real app, on both stores: HEARTBEAT_URL gets one GET after each successful poll
// (a local HTTP server counts them), none after a failed one, and a heartbeat server that is down or slow never
// fails or delays a poll. On PostgreSQL with two replicas only the lease holder's polls ping. `/treasury alerts`
// shows the last successful poll's age, from the store, on any replica. The URL's secret path is never logged.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { blocksToText } from '../support/rig/blocks-text.js';
import { expectStaysAt, waitUntil } from '../support/waiting.js';
import { type AlertRig, AVERY, startAlertRig, storesUnderTest, usePostgres } from './rig.js';

const postgres = usePostgres('heartbeat');
const stores = storesUnderTest(postgres);

const SECRET_PATH = '/ping/0b5e-secret-check-token';

/** A monitor like healthchecks.io: counts the GETs to SECRET_PATH, answering after `delayMs`. */
async function startMonitor(delayMs = 0): Promise<{ url: string; gets: () => number; close(): Promise<void> }> {
  let gets = 0;
  const server: Server = createServer((req, res) => {
    setTimeout(() => {
      if (req.method === 'GET' && req.url === SECRET_PATH) gets += 1;
      res.writeHead(200).end('OK');
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${SECRET_PATH}`,
    gets: () => gets,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL nobody listens on: a port opened, then closed again. */
async function deadUrl(): Promise<string> {
  const monitor = await startMonitor();
  await monitor.close();
  return monitor.url;
}

/** The "Last successful poll" field of `/treasury alerts`. */
const lastPollOf = (text: string) => /\*Last successful poll\*\n(.*)/.exec(text)?.[1];
const lastPoll = async (rig: AlertRig) => lastPollOf(blocksToText((await rig.command('alerts', AVERY)).blocks ?? []));

describe.each(stores)('the heartbeat after each successful poll, on %s', (_name, storeChoice) => {
  let rig: AlertRig | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
    for (const close of closers.splice(0)) await close();
  });

  it('one GET per successful poll, none after a poll that failed; /treasury alerts shows the last successful poll', async () => {
    const monitor = await startMonitor();
    closers.push(() => monitor.close());
    rig = await startAlertRig({ store: await storeChoice(), env: { HEARTBEAT_URL: monitor.url } });
    expect(await lastPoll(rig)).toBe(':warning: no successful poll yet');

    await rig.poll();
    await waitUntil(() => monitor.gets() === 1 || undefined, 'the first heartbeat');
    await rig.poll();
    await waitUntil(() => monitor.gets() === 2 || undefined, 'the second heartbeat');

    rig.simulator.advanceTime(40_000);
    expect(await lastPoll(rig)).toMatch(/^4\d seconds ago \(/);

    // The payment API refuses the withdrawals list: the poll fails, no heartbeat.
    rig.simulator.injectFault('listWithdrawals', { status: 500 }, 1_000);
    await rig.poll();
    await expectStaysAt(2, monitor.gets, 500);
    // The failed poll leaves the last successful one where it was.
    expect(await lastPoll(rig)).toMatch(/^4\d seconds ago \(/);
    rig.simulator.clearFaults();
    await rig.poll();
    await waitUntil(() => monitor.gets() === 3 || undefined, 'the heartbeat after the API is back');
    expect(await lastPoll(rig)).toMatch(/^\d+ seconds? ago \(/);

    expect(rig.logs.join('\n')).not.toContain('secret-check-token');
  });

  it('a heartbeat server that is down or slow never fails or delays a poll; the failure is one warn line without the URL', async () => {
    rig = await startAlertRig({ store: await storeChoice(), env: { HEARTBEAT_URL: await deadUrl() } });
    const { id } = await rig.failedWithdrawal(); // the poll ran to its end: its alert is in Slack
    expect(id).toBeTruthy();
    const warned = await waitUntil(
      () => rig!.logs.find((line) => line.includes('heartbeat: the GET to HEARTBEAT_URL failed')),
      'the heartbeat failure line',
    );
    expect(warned).toMatch(/WARN|warn/);
    expect(warned).toContain('ECONNREFUSED');
    expect(rig.logs.join('\n')).not.toContain('secret-check-token');
    expect(await lastPoll(rig)).toMatch(/^\d+ seconds? ago \(/);
    await rig.close();

    // A monitor that takes 3 s to answer: the poll does not wait for it.
    const slow = await startMonitor(3_000);
    closers.push(() => slow.close());
    rig = await startAlertRig({ store: await storeChoice(), env: { HEARTBEAT_URL: slow.url } });
    const started = Date.now();
    await rig.poll();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(slow.gets()).toBe(0);
    // Shutdown waits for the GET under way (it is work in flight, at most 5 s), then stops.
    await rig.close();
    rig = undefined;
    expect(slow.gets()).toBe(1);
  }, 30_000);
});

describe.skipIf(!postgres.available)('the heartbeat with two replicas on PostgreSQL', () => {
  let rig: AlertRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('only the lease holder pings; the standby shows the same last successful poll from the store', async () => {
    const monitor = await startMonitor();
    try {
      rig = await startAlertRig({
        store: await postgres.database(),
        replicas: ['a', 'b'],
        env: { HEARTBEAT_URL: monitor.url },
      });
      const [a, b] = rig.replicas;
      await rig.poll(); // replica a takes the lease and polls
      await waitUntil(() => monitor.gets() === 1 || undefined, 'the leader heartbeat');
      // Replica b holds no lease: its poll is skipped, no heartbeat.
      await b!.treasury.alerts!.runNow();
      await expectStaysAt(1, monitor.gets, 500);
      await a!.treasury.alerts!.runNow();
      await waitUntil(() => monitor.gets() === 2 || undefined, 'the second leader heartbeat');

      rig.simulator.advanceTime(40_000);
      const onStandby = await b!.driver.command('alerts', { userId: AVERY, channelId: 'C0DESK' });
      const [reply] = await onStandby.waitForResponses(1, 5_000);
      expect(lastPollOf(blocksToText(reply!.blocks ?? []))).toMatch(/^4\d seconds ago \(/);
    } finally {
      await rig?.close();
      rig = undefined;
      await monitor.close();
    }
  }, 30_000);
});
