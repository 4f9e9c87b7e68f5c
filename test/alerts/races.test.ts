// Two people click Acknowledge on the same alert at the same moment: one wins, the other is told privately who
// has it, and the thread says it once. On the state file, on PostgreSQL, and on two replicas sharing PostgreSQL
// (one click reaching each), through the real app.
import { afterEach, describe, expect, it } from 'vitest';
import { expectStaysAt } from '../support/waiting.js';
import {
  type AlertRig,
  AVERY,
  BLAKE,
  controlsOf,
  type StoreChoice,
  type StoredMessage,
  startAlertRig,
  textOf,
  usePostgres,
} from './rig.js';

const postgres = usePostgres('alerts_races');

const setups: Array<[string, () => Promise<{ store: StoreChoice; replicas: string[] }>]> = [
  ['the state file', async () => ({ store: { kind: 'file' }, replicas: ['a'] })],
  ...(postgres.available
    ? ([
        ['PostgreSQL', async () => ({ store: await postgres.database(), replicas: ['a'] })],
        [
          'two replicas sharing PostgreSQL, one click to each',
          async () => ({ store: await postgres.database(), replicas: ['a', 'b'] }),
        ],
      ] as Array<[string, () => Promise<{ store: StoreChoice; replicas: string[] }>]>)
    : []),
];

describe.each(setups)('two people acknowledge at once, on %s', (_name, setup) => {
  let rig: AlertRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  it('exactly one acknowledgement wins; the other person is told privately who has it; one thread line', async () => {
    rig = await startAlertRig(await setup());
    const r = rig;
    const second = r.replicas.length - 1;
    // Several alerts, so the race is run more than once (each a fresh pair of clicks on a fresh alert).
    const alerts: StoredMessage[] = [];
    for (let i = 0; i < 3; i += 1) alerts.push((await r.failedWithdrawal()).alert);

    for (const alert of alerts) {
      const [avery, blake] = await Promise.all([
        r.click(alert, 'alert_acknowledge', AVERY),
        r.click(alert, 'alert_acknowledge', BLAKE, { replica: second }),
      ]);
      expect([avery.status, blake.status]).toEqual([200, 200]);
      const acknowledged = await r.waitForMessage(alert.ts, /ACKNOWLEDGED/);
      const winner = /Acknowledged by <@(U0AVERY|U0BLAKE)>/.exec(textOf(acknowledged))?.[1];
      expect([AVERY, BLAKE]).toContain(winner);
      const [winnerClick, loserClick] = winner === AVERY ? [avery, blake] : [blake, avery];
      const [notice] = await loserClick.waitForResponses(1);
      expect(notice!.responseType).toBe('ephemeral');
      expect(notice!.replaceOriginal).toBe(false);
      expect(notice!.text).toMatch(new RegExp(`^Nothing changed: <@${winner}> acknowledged this alert <!date\\^`));
      const [line] = await r.waitForThread(alert.ts, 1);
      expect(textOf(line!)).toMatch(new RegExp(`^:eyes: <@${winner}> acknowledged this`));
      await expectStaysAt({ thread: 1, winnerHeard: 0, loserHeard: 1 }, () => ({
        thread: r.thread(alert.ts).length,
        winnerHeard: winnerClick.responses().length,
        loserHeard: loserClick.responses().length,
      }));
      expect(controlsOf(r.message(alert.ts)!)).toEqual(['alert_resolve', 'alert_snooze']);
    }
  });
});
