// Balance thresholds through the real app: admins set them with /treasury threshold (others are refused),
// the poller reads the asset list once per poll while one is set, a crossing raises one balance_low alert people
// own, a hovering balance raises no second one, recovery above the threshold + 10 % resolves it, a removed
// threshold ends it, and a gas top-up short of donor balance while the donor asset is low goes into its thread.
// On the state file and on PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import {
  ALERTS,
  type AlertRig,
  AVERY,
  BLAKE,
  colourOf,
  controlsOf,
  startAlertRig,
  storesUnderTest,
  textOf,
  usePostgres,
} from './rig.js';

const postgres = usePostgres('thresholds');
let rig: AlertRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** USDT on BSC has 18 decimals in the simulator: whole tokens in base units. */
const usdtBsc = (tokens: bigint) => tokens * 10n ** 18n;
const topLevel = (r: AlertRig) =>
  r.slack.messages(ALERTS).filter((m) => m.threadTs === undefined || m.threadTs === m.ts);

describe.each(storesUnderTest(postgres))('balance thresholds on %s', (_name, store) => {
  it('an admin sets one, others are refused; a crossing alerts once, hovering stays quiet, recovery resolves it', async () => {
    rig = await startAlertRig({ store: await store(), env: { TREASURY_ADMINS: AVERY } });
    const r = rig;
    const asset = r.simulator.ids.assets.usdtBsc;

    const refused = await r.command('threshold USDT@BSC below 5,000', BLAKE);
    expect(refused.text ?? '').toMatch(/Only treasury admins/);
    expect(await r.replicas[0]!.store.balances.listThresholds()).toEqual([]);

    const set = await r.command('threshold USDT@BSC below 5,000', AVERY);
    expect(JSON.stringify(set)).toMatch(/USDT@BSC.*below 5,000 USDT/);
    expect(JSON.stringify(set)).toContain('5,500 USDT');
    const [stored] = await r.replicas[0]!.store.balances.listThresholds();
    expect(stored).toMatchObject({ assetId: asset, measure: 'units', below: usdtBsc(5000n).toString(), setBy: AVERY });
    expect((await r.replicas[0]!.store.balances.listThresholdChanges(new Date(0))).map((c) => c.by)).toEqual([AVERY]);

    const list = await r.command('thresholds', BLAKE);
    expect(JSON.stringify(list)).toMatch(/USDT@BSC\* below 5,000 USDT · now 48,210.5 USDT/);

    // Above: the poll reads the asset list once and alerts nothing.
    r.simulator.resetRequests();
    await r.poll();
    expect(r.simulator.requestCount('listAssets')).toBe(1);
    expect(topLevel(r)).toHaveLength(0);

    // Below: one alert.
    r.simulator.setAssetBalance(asset, usdtBsc(4_000n));
    await r.poll();
    const alerts = topLevel(r);
    expect(alerts).toHaveLength(1);
    const alert = alerts[0]!;
    expect(textOf(alert)).toMatch(/OPEN.*USDT@BSC balance is below 5,000 USDT/);
    expect(textOf(alert)).toContain('4,000 USDT');
    expect(controlsOf(alert).length).toBeGreaterThan(0);

    // Hovering: above the threshold but under the recovery level, then below again: no second alert, still open.
    r.simulator.setAssetBalance(asset, usdtBsc(5_200n));
    await r.poll();
    r.simulator.setAssetBalance(asset, usdtBsc(4_900n));
    await r.poll();
    r.simulator.setAssetBalance(asset, usdtBsc(5_499n));
    await r.poll();
    expect(topLevel(r)).toHaveLength(1);
    expect(textOf(r.message(alert.ts)!)).toMatch(/OPEN/);

    // At the recovery level (5,000 + 10 %): resolved by the facts, its thread says why.
    r.simulator.setAssetBalance(asset, usdtBsc(5_500n));
    await r.poll();
    const resolved = await r.waitForMessage(alert.ts, /RESOLVED/);
    expect(controlsOf(resolved)).toEqual([]);
    expect(colourOf(resolved)).toBe('#2EB67D');
    expect(textOf(resolved)).toContain('Back to 5,500 USDT');
    const replies = await r.waitForThread(alert.ts, 1);
    expect(textOf(replies.at(-1)!)).toMatch(/balance is back at 5,500 USDT, above 5,500 USDT/);

    // A second crossing is a new incident: a new alert.
    r.simulator.setAssetBalance(asset, usdtBsc(10n));
    await r.poll();
    expect(topLevel(r)).toHaveLength(2);
    expect(topLevel(r).filter((m) => /OPEN/.test(textOf(m)))).toHaveLength(1);
  });

  it('gas top-ups short of donor balance while the donor asset is low go into its alert; removing the threshold ends it', async () => {
    rig = await startAlertRig({ store: await store(), env: { TREASURY_ADMINS: AVERY } });
    const r = rig;
    const asset = r.simulator.ids.assets.usdtBsc;
    await r.command('threshold USDT@BSC below $5,000', AVERY);
    r.simulator.setAssetBalance(asset, usdtBsc(100n));
    await r.poll();
    const [alert] = topLevel(r);
    expect(textOf(alert!)).toMatch(/USDT@BSC balance is below \$5,000/);

    // Two top-ups on BSC short of donor balance (the donor is USDT on BSC): told in the alert's thread.
    const first = r.simulator.addGasDistribution({
      networkId: r.simulator.ids.networks.bsc,
      status: 'failed',
      subStatus: 'not_enough_donor_balance',
    });
    const second = r.simulator.addGasDistribution({
      networkId: r.simulator.ids.networks.bsc,
      status: 'pending',
      subStatus: 'not_enough_donor_balance',
    });
    await r.poll();
    expect(topLevel(r)).toHaveLength(1);
    const thread = await r.waitForThread(alert!.ts, 2);
    const told = thread.map(textOf).join('\n');
    expect(told).toContain(first.id);
    expect(told).toContain(second.id);

    // A top-up on another network is its own alert.
    const other = r.simulator.addGasDistribution({
      networkId: r.simulator.ids.networks.ethereum,
      status: 'failed',
      subStatus: 'not_enough_donor_balance',
    });
    await r.poll();
    expect(topLevel(r)).toHaveLength(2);
    expect(textOf(topLevel(r).at(-1)!)).toContain(other.id);

    // The pending top-up sent later does not resolve the low-balance alert: only the balance does.
    r.simulator.updateGasDistribution(second.id, { status: 'success', subStatus: 'sent' });
    r.simulator.advanceTime(6 * 60_000);
    await r.poll();
    expect(textOf(r.message(alert!.ts)!)).toMatch(/OPEN/);

    // Removing the threshold ends the alert, saying why; the trail has both changes.
    const off = await r.command('threshold USDT@BSC off', AVERY);
    expect(JSON.stringify(off)).toContain('has no threshold any more');
    await r.poll();
    const ended = await r.waitForMessage(alert!.ts, /RESOLVED/);
    expect(textOf(ended)).toContain('Its threshold was removed');
    const trail = await r.replicas[0]!.store.balances.listThresholdChanges(new Date(0));
    expect(trail.map((c) => [c.action, c.by])).toEqual([
      ['set', AVERY],
      ['removed', AVERY],
    ]);
    // With no threshold left, a poll reads no balances.
    r.simulator.resetRequests();
    await r.poll();
    expect(r.simulator.requestCount('listAssets')).toBe(0);
  });

  it('a gas failure in the same poll as the crossing joins the new alert; a changed threshold ends the old alert', async () => {
    rig = await startAlertRig({ store: await store(), env: { TREASURY_ADMINS: AVERY } });
    const r = rig;
    const asset = r.simulator.ids.assets.usdtBsc;
    await r.command('threshold USDT@BSC below 5,000', AVERY);
    // The balance drops and a top-up on BSC fails for lack of donor balance before the same poll.
    r.simulator.setAssetBalance(asset, usdtBsc(4_000n));
    const gas = r.simulator.addGasDistribution({
      networkId: r.simulator.ids.networks.bsc,
      status: 'failed',
      subStatus: 'not_enough_donor_balance',
    });
    await r.poll();
    const alerts = topLevel(r);
    expect(alerts).toHaveLength(1);
    expect(textOf(alerts[0]!)).toMatch(/USDT@BSC balance is below 5,000 USDT/);
    const thread = await r.waitForThread(alerts[0]!.ts, 1);
    expect(textOf(thread[0]!)).toContain(gas.id);

    // Lowered to 3,000 while the balance is 4,000: the alert about 5,000 ends, and 4,000 is no crossing of 3,000.
    await r.command('threshold USDT@BSC below 3,000', AVERY);
    await r.poll();
    const ended = await r.waitForMessage(alerts[0]!.ts, /RESOLVED/);
    expect(textOf(ended)).toContain('Its threshold was changed to below 3,000 USDT');
    expect(topLevel(r)).toHaveLength(1);
    // Raised to 10,000: 4,000 is below it, a new alert with the new level.
    await r.command('threshold USDT@BSC below 10,000', AVERY);
    await r.poll();
    expect(topLevel(r)).toHaveLength(2);
    expect(textOf(topLevel(r)[1]!)).toMatch(/below 10,000 USDT[\s\S]*11,000 USDT/);
  });
});

describe.skipIf(!postgres.available)('balance thresholds on two replicas', () => {
  it('a threshold set on one replica is watched by the one that polls; both polling at once raise one alert', async () => {
    rig = await startAlertRig({
      store: await postgres.database(),
      replicas: ['a', 'b'],
      env: { TREASURY_ADMINS: AVERY },
    });
    const r = rig;
    const asset = r.simulator.ids.assets.usdtBsc;
    // Set through replica b (a command goes to whichever replica Slack reaches).
    const set = await r.replicas[1]!.driver.command('threshold USDT@BSC below 5,000', {
      userId: AVERY,
      channelId: 'C0DESK',
    });
    await set.waitForResponses(1, 5_000);
    r.simulator.setAssetBalance(asset, usdtBsc(1n));
    await Promise.all(r.replicas.map((replica) => replica.treasury.alerts!.runNow()));
    await Promise.all(r.replicas.map((replica) => replica.treasury.alerts!.runNow()));
    expect(topLevel(r)).toHaveLength(1);
    expect(textOf(topLevel(r)[0]!)).toMatch(/USDT@BSC balance is below 5,000 USDT/);
  });
});

describe('threshold commands', () => {
  it('say plainly what is wrong: no admins, bad amounts, unknown assets, nothing to remove', async () => {
    rig = await startAlertRig({ store: { kind: 'file' }, env: { TREASURY_ADMINS: `${AVERY},S0LEADS` } });
    const r = rig;
    const say = async (text: string) => JSON.stringify(await r.command(text, AVERY));
    expect(await say('threshold USDT@BSC below 0')).toMatch(/Amount must be greater than zero/);
    expect(await say('threshold USDT@BSC below -5')).toMatch(/Amount cannot be negative/);
    expect(await say('threshold USDT@BSC below lots')).toMatch(/lots.{0,12} is not a number/);
    expect(await say('threshold USDT@BSC below $0')).toMatch(/Amount must be greater than zero/);
    expect(await say('threshold NOPE below 5')).toMatch(/No asset/);
    expect(await say('threshold USDT below 5')).toMatch(/more than one asset/);
    expect(await say('threshold USDT@BSC above 5')).toMatch(/Say `below`/);
    expect(await say('threshold USDT@BSC off')).toMatch(/had no threshold: nothing changed/);
    expect(await say('thresholds')).toMatch(/No balance thresholds are set/);
    // A member of an admin group Slack cannot list is refused (fail closed), with nothing stored.
    expect(JSON.stringify(await r.command('threshold USDT@BSC below 5', BLAKE))).toMatch(/Only treasury admins/);
    expect(await r.replicas[0]!.store.balances.listThresholds()).toEqual([]);
  });
});
