// The alert message as a view of its record: each look within Slack's limits (the stand-in's validator),
// the first word and colour telling open from handled, at most three controls and none once resolved, a person's
// note escaped, and the Resolve modal within the modal limits.
import { describe, expect, it } from 'vitest';
import { validateModalView } from '../../dev/workspace/block-kit-validation.js';
import { ACTION_IDS } from '../../src/blocks/ids.js';
import {
  ALERT_COLORS,
  buildAlertMessage,
  buildAlertRefusal,
  buildAlertThreadLine,
  buildOpenAlerts,
  buildResolveModal,
  parseAlertBlockId,
} from '../../src/features/alerts/blocks.js';
import {
  type AlertEvent,
  type AlertLife,
  acknowledgeAlert,
  openAlertLife,
  resolveAlertByPerson,
  retireAlert,
  snoozeAlert,
} from '../../src/features/alerts/lifecycle.js';
import { type AlertView, alertRef, firstView, newOwnedAlert } from '../../src/features/alerts/owned.js';
import type { OutboxItem } from '../../src/features/alerts/records.js';
import { expectWithinSlackLimits } from '../support/block-limits.js';
import { failedWithdrawalFacts } from '../support/fixtures.js';
import { messageToText } from '../support/rig/blocks-text.js';

const NOW = new Date('2026-11-24T10:00:00.000Z');
const HOSTILE = { text: `<!channel> *bold* ${'x'.repeat(400)} & <@U0EVIL> \u0000`, txHash: `<${'f'.repeat(300)}>` };
const item = (i: number, hostile = false): OutboxItem => {
  const facts = failedWithdrawalFacts(i, NOW, hostile ? HOSTILE : undefined);
  return { key: `withdrawal:${facts.kind === 'withdrawal' ? facts.id : i}`, queuedAt: NOW.toISOString(), facts };
};
const act = (userId: string, version: number) => ({ userId, at: NOW, seenVersion: version });
const must = (change: { ok: boolean; life?: AlertLife }) => {
  if (!change.ok || !change.life) throw new Error('expected a change');
  return change.life;
};

const open = openAlertLife(NOW);
const acknowledged = must(acknowledgeAlert(open, act('U0AVERY', 0)));
const snoozed = must(snoozeAlert(open, act('U0AVERY', 0), new Date(NOW.getTime() + 3_600_000)));
const resolved = must(resolveAlertByPerson(acknowledged, act('U0BLAKE', 1), 'refilled <!here> & retried', true));
const retired = must(retireAlert(open, NOW, 200)!);

function view(life: AlertLife, items: OutboxItem[] = [item(1)]): AlertView {
  return { ...firstView(items.length === 1 ? items[0]!.key : 'summary:withdrawal:u1', items, NOW), life };
}

const controlsOf = (message: ReturnType<typeof buildAlertMessage>) =>
  (message.attachments ?? [])
    .flatMap((a) => a.blocks)
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b as { elements: { action_id: string }[] }).elements.map((e) => e.action_id));

describe('the alert message, drawn from its record', () => {
  it.each([
    [
      'open',
      open,
      ':red_circle: *OPEN*',
      ALERT_COLORS.open,
      [ACTION_IDS.alertAcknowledge, ACTION_IDS.alertResolve, ACTION_IDS.alertSnooze],
    ],
    [
      'acknowledged',
      acknowledged,
      '*ACKNOWLEDGED*',
      ALERT_COLORS.acknowledged,
      [ACTION_IDS.alertResolve, ACTION_IDS.alertSnooze],
    ],
    [
      'snoozed',
      snoozed,
      '*SNOOZED*',
      ALERT_COLORS.snoozed,
      [ACTION_IDS.alertAcknowledge, ACTION_IDS.alertResolve, ACTION_IDS.alertSnooze],
    ],
    ['resolved', resolved, '*RESOLVED*', ALERT_COLORS.resolved, []],
    ['retired', retired, '*NO LONGER FOLLOWED*', '#616061', []],
  ])('%s: first word, colour bar and controls', (_name, life, word, color, controls) => {
    const message = buildAlertMessage(view(life), NOW);
    expectWithinSlackLimits(message);
    expect(message.blocks[0]).toMatchObject({ type: 'section', text: { text: expect.stringContaining(word) } });
    expect(message.attachments?.[0]?.color).toBe(color);
    expect(controlsOf(message)).toEqual(controls);
    expect(controls.length).toBeLessThanOrEqual(3);
  });

  it('says who has it, who resolved it and their note, escaped (a note cannot mention @here)', () => {
    const text = messageToText(buildAlertMessage(view(resolved), NOW));
    expect(text).toContain('Acknowledged by <@U0AVERY>');
    expect(text).toContain('Resolved by <@U0BLAKE>');
    expect(text).toContain('refilled &lt;!here&gt; &amp; retried');
    expect(text).not.toContain('<!here>');
    expect(text).toMatch(/<!date\^\d+\^\{date_short_pretty\} \{time\}\|2026-11-24 10:00 UTC>/);
  });

  it('keeps within the limits with hostile API values, for one failure and a summary of many', () => {
    for (const items of [[item(1, true)], Array.from({ length: 60 }, (_, i) => item(i, true))]) {
      for (const life of [open, acknowledged, resolved]) {
        const message = buildAlertMessage(view(life, items), NOW, { mention: '<!subteam^S0ONCALL>' });
        expectWithinSlackLimits(message);
        expect(JSON.stringify(message)).not.toContain('<!channel>');
      }
    }
  });

  it('the actions block names the alert and the version it shows; a long key still fits a block id', () => {
    const message = buildAlertMessage(view(acknowledged), NOW);
    const actions = message.attachments![0]!.blocks.find((b) => b.type === 'actions') as { block_id: string };
    expect(parseAlertBlockId(actions.block_id)).toEqual({ version: 1, ref: item(1).key });
    const longKey = `stuck:withdrawal:${'9'.repeat(400)}`;
    expect(alertRef(longKey).length).toBeLessThanOrEqual(250);
    expect(alertRef(longKey)).not.toBe(alertRef(`${longKey}0`));
  });

  it('a mention from the route is shown while the alert is not resolved', () => {
    expect(messageToText(buildAlertMessage(view(open), NOW, { mention: '<!subteam^S0ONCALL>' }))).toContain(
      '<!subteam^S0ONCALL>',
    );
    expect(messageToText(buildAlertMessage(view(resolved), NOW, { mention: '<!subteam^S0ONCALL>' }))).not.toContain(
      'S0ONCALL',
    );
  });
});

describe('thread lines, refusals, the modal and the open list', () => {
  it('a line for each change, every one within the limits', () => {
    const events: AlertEvent[] = [
      { type: 'acknowledged', by: 'U1', at: NOW.toISOString() },
      { type: 'snoozed', by: 'U1', at: NOW.toISOString(), until: NOW.toISOString() },
      { type: 'resolved_by_person', by: 'U1', at: NOW.toISOString(), note: 'x'.repeat(3_000) },
      { type: 'resolved_by_facts', at: NOW.toISOString(), reason: 'the withdrawal succeeded' },
      {
        type: 'reminder_unacknowledged',
        at: NOW.toISOString(),
        number: 2,
        openedAt: NOW.toISOString(),
        mentions: ['<@U9>'],
      },
      { type: 'reminder_stale', at: NOW.toISOString(), acknowledgedBy: 'U1', acknowledgedAt: NOW.toISOString() },
      { type: 'reposted', at: NOW.toISOString() },
    ];
    for (const event of events) expectWithinSlackLimits(buildAlertThreadLine(event, NOW));
    expect(buildAlertThreadLine(events[4]!, NOW).text).toMatch(/^:bell: <@U9> Nobody has acknowledged/);
  });

  it('a refused click names who acted', () => {
    expect(buildAlertRefusal({ ok: false, reason: 'already_acknowledged', current: acknowledged }).text).toContain(
      '<@U0AVERY> acknowledged this alert',
    );
    expect(buildAlertRefusal({ ok: false, reason: 'already_resolved', current: resolved }).text).toContain(
      '<@U0BLAKE> resolved this alert',
    );
    expect(buildAlertRefusal({ ok: false, reason: 'outdated', current: acknowledged }).text).toContain(
      'Now: Acknowledged by <@U0AVERY>',
    );
  });

  it('the Resolve modal is a valid modal, required or optional', () => {
    for (const required of [true, false]) {
      const modal = buildResolveModal(
        view(open, [item(1, true)]),
        { ref: item(1).key, version: 0, channel: 'C1' },
        required,
        NOW,
      );
      expect(validateModalView(modal)).toEqual([]);
      expect(modal.blocks[1]).toMatchObject({ optional: !required });
    }
  });

  it('/treasury alerts open: owners or nobody, oldest first as given, capped with how many more', () => {
    const alert = newOwnedAlert({ key: item(1).key, items: [item(1)], channel: 'C1', ts: '1.1', at: NOW });
    const lines = [
      { view: { ...alert, life: open }, postedAt: NOW.toISOString(), permalink: 'https://x.slack.com/archives/C1/p1' },
      { view: { ...alert, life: acknowledged }, postedAt: NOW.toISOString() },
    ];
    const message = buildOpenAlerts(lines, 5, new Date(NOW.getTime() + 2 * 3_600_000));
    expectWithinSlackLimits(message);
    const text = messageToText(message);
    expect(text).toContain('5 open alerts');
    expect(text).toContain('_nobody yet_');
    expect(text).toContain('<@U0AVERY>');
    expect(text).toContain('2 h old');
    expect(text).toContain('<https://x.slack.com/archives/C1/p1|open>');
    expect(text).toContain('…and 3 newer ones not listed here.');
    expect(messageToText(buildOpenAlerts([], 0, NOW))).toContain('No open alerts');
  });
});
