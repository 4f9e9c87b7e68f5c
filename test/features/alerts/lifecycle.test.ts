import { describe, expect, it } from 'vitest';
import {
  type AlertLife,
  acknowledgeAlert,
  dueReminder,
  markReminderSent,
  openAlertLife,
  resolveAlertByFacts,
  resolveAlertByPerson,
  snoozeAlert,
} from '../../../src/features/alerts/lifecycle.js';

const T0 = new Date('2026-11-24T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const policy = { remindAfterMs: 30 * 60_000, staleAfterMs: 24 * 60 * 60_000 };

function mustChange(result: ReturnType<typeof acknowledgeAlert>): AlertLife {
  if (!result.ok) throw new Error(`expected a change, got ${result.reason}`);
  return result.life;
}

describe('acknowledge, snooze, resolve', () => {
  it('open → acknowledged → resolved, each change raising the version and leaving one thread line', () => {
    const open = openAlertLife(T0);
    const ack = acknowledgeAlert(open, { userId: 'U1', at: at(5), seenVersion: 0 });
    expect(ack).toMatchObject({ ok: true, event: { type: 'acknowledged', by: 'U1', at: at(5).toISOString() } });
    const acknowledged = mustChange(ack);
    expect(acknowledged).toMatchObject({
      state: 'acknowledged',
      version: 1,
      acknowledgedBy: 'U1',
      acknowledgedAt: at(5).toISOString(),
    });
    const done = resolveAlertByPerson(
      acknowledged,
      { userId: 'U2', at: at(9), seenVersion: 1 },
      '  refilled the donor ',
      true,
    );
    expect(done).toMatchObject({
      ok: true,
      event: { type: 'resolved_by_person', by: 'U2', note: 'refilled the donor' },
    });
    expect(mustChange(done)).toMatchObject({
      state: 'resolved',
      version: 2,
      resolvedAt: at(9).toISOString(),
      resolution: { by: 'person', userId: 'U2', note: 'refilled the donor' },
      acknowledgedBy: 'U1',
    });
  });

  it('a second acknowledge on the same version is told who has it', () => {
    const acknowledged = mustChange(acknowledgeAlert(openAlertLife(T0), { userId: 'U1', at: at(1), seenVersion: 0 }));
    expect(acknowledgeAlert(acknowledged, { userId: 'U2', at: at(1), seenVersion: 1 })).toMatchObject({
      ok: false,
      reason: 'already_acknowledged',
      current: { acknowledgedBy: 'U1' },
    });
  });

  it('two people clicking Acknowledge on the same message: the first wins, the second is told who has it', () => {
    const open = openAlertLife(T0);
    const first = mustChange(acknowledgeAlert(open, { userId: 'U1', at: at(1), seenVersion: 0 }));
    expect(acknowledgeAlert(first, { userId: 'U2', at: at(1), seenVersion: 0 })).toMatchObject({
      ok: false,
      reason: 'already_acknowledged',
      current: { state: 'acknowledged', acknowledgedBy: 'U1' },
    });
  });

  it('an acknowledge never reopens a resolved alert, whatever version the click carries', () => {
    const resolved = mustChange(
      resolveAlertByPerson(openAlertLife(T0), { userId: 'U1', at: at(2), seenVersion: 0 }, 'done', true),
    );
    for (const seenVersion of [0, 1, 7]) {
      expect(acknowledgeAlert(resolved, { userId: 'U2', at: at(3), seenVersion })).toMatchObject({
        ok: false,
        reason: 'already_resolved',
        current: { state: 'resolved' },
      });
      expect(snoozeAlert(resolved, { userId: 'U2', at: at(3), seenVersion }, at(60))).toMatchObject({
        ok: false,
        reason: 'already_resolved',
      });
    }
  });

  it.each([
    ['', true, 'note_required'],
    ['   ', true, 'note_required'],
    ['', false, undefined],
  ])('resolve with note %j (required: %s) → %s', (note, required, refusal) => {
    const result = resolveAlertByPerson(openAlertLife(T0), { userId: 'U1', at: at(1), seenVersion: 0 }, note, required);
    if (refusal) expect(result).toMatchObject({ ok: false, reason: refusal });
    else
      expect(result).toMatchObject({
        ok: true,
        event: { type: 'resolved_by_person', note: '' },
        life: { resolution: { note: '' } },
      });
  });

  it('resolved by the facts regardless of the version; a resolved alert is left as it was', () => {
    const acknowledged = mustChange(acknowledgeAlert(openAlertLife(T0), { userId: 'U1', at: at(1), seenVersion: 0 }));
    const byFacts = resolveAlertByFacts(acknowledged, at(4), 'the withdrawal succeeded');
    expect(byFacts).toMatchObject({
      event: { type: 'resolved_by_facts', reason: 'the withdrawal succeeded', at: at(4).toISOString() },
      life: { state: 'resolved', version: 2, resolution: { by: 'facts', reason: 'the withdrawal succeeded' } },
    });
    expect(resolveAlertByFacts(byFacts!.life, at(5), 'again')).toBeUndefined();
  });

  it('snooze keeps the state and raises the version; acknowledging ends the snooze', () => {
    const snoozed = mustChange(snoozeAlert(openAlertLife(T0), { userId: 'U1', at: at(1), seenVersion: 0 }, at(61)));
    expect(snoozed).toMatchObject({ state: 'open', version: 1, snoozedUntil: at(61).toISOString(), snoozedBy: 'U1' });
    const acknowledged = mustChange(acknowledgeAlert(snoozed, { userId: 'U2', at: at(2), seenVersion: 1 }));
    expect(acknowledged.snoozedUntil).toBeUndefined();
  });
});

describe('dueReminder', () => {
  const open = openAlertLife(T0);
  it.each([
    [29, undefined],
    [30, { kind: 'unacknowledged', number: 1 }],
    [59, { kind: 'unacknowledged', number: 1 }],
  ])('open, nothing sent, %i minutes old → %j', (minutes, due) => {
    expect(dueReminder(open, at(minutes), policy)).toEqual(due);
  });

  it('the second comes at twice the time, and there is no third', () => {
    const once = markReminderSent(open, { kind: 'unacknowledged', number: 1 });
    expect(dueReminder(once, at(59), policy)).toBeUndefined();
    expect(dueReminder(once, at(60), policy)).toEqual({ kind: 'unacknowledged', number: 2 });
    const twice = markReminderSent(once, { kind: 'unacknowledged', number: 2 });
    expect(dueReminder(twice, at(10_000), policy)).toBeUndefined();
  });

  it('a snoozed alert is quiet until the snooze ends, then the reminder it missed is due', () => {
    const snoozed = mustChange(snoozeAlert(open, { userId: 'U1', at: at(1), seenVersion: 0 }, at(240)));
    expect(dueReminder(snoozed, at(239), policy)).toBeUndefined();
    expect(dueReminder(snoozed, at(240), policy)).toEqual({ kind: 'unacknowledged', number: 1 });
  });

  it('acknowledged: one "still not resolved" reminder to whoever has it, after ALERT_STALE_AFTER', () => {
    const acknowledged = mustChange(acknowledgeAlert(open, { userId: 'U7', at: at(10), seenVersion: 0 }));
    expect(dueReminder(acknowledged, at(10 + 24 * 60 - 1), policy)).toBeUndefined();
    const due = dueReminder(acknowledged, at(10 + 24 * 60), policy);
    expect(due).toEqual({ kind: 'stale', acknowledgedBy: 'U7' });
    expect(dueReminder(markReminderSent(acknowledged, due!), at(100_000), policy)).toBeUndefined();
  });

  it('nothing is due for a resolved alert', () => {
    const resolved = resolveAlertByFacts(open, at(1), 'it succeeded')!.life;
    expect(dueReminder(resolved, at(100_000), policy)).toBeUndefined();
  });
});
