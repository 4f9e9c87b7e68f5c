import { describe, expect, it } from 'vitest';
import {
  buildAlertStatus,
  buildApiDownAlert,
  buildFailureAlert,
  buildFailureSummary,
  SUMMARY_LIST_CAP,
} from '../../../../src/features/alerts/blocks.js';
import type { FailureFacts } from '../../../../src/features/alerts/kinds/index.js';
import { planDeliveries } from '../../../../src/features/alerts/poller/index.js';
import type { OutboxItem } from '../../../../src/features/alerts/records.js';
import { expectWithinSlackLimits } from '../../../support/block-limits.js';
import { failedWithdrawalFacts } from '../../../support/fixtures.js';
import { blocksToText } from '../../../support/rig/blocks-text.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const HOSTILE = '<!channel> <http://evil.example|click> & '.repeat(100);

const withdrawal = (i: number, extreme = false): FailureFacts =>
  failedWithdrawalFacts(i, NOW, extreme ? { text: HOSTILE, txHash: 'h'.repeat(500) } : undefined);

const gas = (i: number): FailureFacts => ({
  kind: 'gas',
  id: `g-${i}`,
  status: 'pending',
  subStatus: 'not_enough_donor_balance',
  createdAt: NOW.toISOString(),
  network: { title: 'Polygon', symbol: 'POLYGON' },
  targetAddress: HOSTILE,
  txHash: null,
  charged: { amountFormatted: '12.340000', currency: 'USDC', amountInUsd: '12.34' },
  topUp: { amountFormatted: '20.5', currency: 'POL', amountInUsd: '10.66' },
  pipelineId: 'p-1',
});

describe('alert messages', () => {
  it('escape everything from the API in mrkdwn: no live mention or link can come through', () => {
    for (const message of [
      buildFailureAlert(withdrawal(1, true)),
      buildFailureAlert(gas(1)),
      buildFailureSummary('withdrawal', [withdrawal(1, true), withdrawal(2, true)]),
    ]) {
      // Headers are plain_text, which Slack never parses; everything else is mrkdwn and must be escaped.
      const mrkdwn = [
        message.text,
        ...JSON.stringify(message.blocks).matchAll(/"type":"mrkdwn","text":"((?:[^"\\]|\\.)*)"/g),
      ].map((m) => (typeof m === 'string' ? m : m[1]!));
      expect(mrkdwn.length).toBeGreaterThan(3);
      const everything = mrkdwn.join('\n');
      expect(everything).not.toContain('<!channel>');
      expect(everything).not.toContain('<http://evil');
      expect(everything).toContain('&lt;!channel&gt;');
    }
  });

  it('stay within Slack limits with extreme values, and a summary of 5,000 lists the cap and "and N more"', () => {
    expectWithinSlackLimits(buildFailureAlert(withdrawal(1, true)));
    expectWithinSlackLimits(buildFailureAlert(gas(1)));
    const many = Array.from({ length: 5_000 }, (_, i) => withdrawal(i, true));
    const summary = buildFailureSummary('withdrawal', many);
    expectWithinSlackLimits(summary);
    const text = blocksToText(summary.blocks);
    expect(text).toContain('5000 withdrawals failed');
    expect(text).toContain(`…and ${5_000 - SUMMARY_LIST_CAP} more.`);
    expectWithinSlackLimits(
      buildApiDownAlert(
        {
          kind: 'api_down',
          since: NOW.toISOString(),
          problems: [{ source: 'gas', code: 'server', message: HOSTILE, polls: 3 }],
        },
        NOW,
      ),
    );
  });

  it('a gas alert shows the amount that could not be charged in the donor stablecoin, and the network', () => {
    const text = blocksToText(buildFailureAlert(gas(1)).blocks);
    expect(text).toContain('*Could not charge*\n12.34 USDC ($12.34)');
    expect(text).toContain('*Network*\nPolygon (POLYGON)');
    expect(text).toContain('*Top-up wanted*\n20.5 POL ($10.66)');
  });

  it('the status says when the poller is off', () => {
    expect(blocksToText(buildAlertStatus(null, NOW).blocks)).toContain('The alert poller is off');
  });
});

describe('flood grouping', () => {
  const item = (facts: FailureFacts): OutboxItem => ({
    key: `${facts.kind}:${facts.id}`,
    queuedAt: NOW.toISOString(),
    facts,
  });

  it('five of a kind go one by one; six become one summary; health messages are never grouped', () => {
    const five = Array.from({ length: 5 }, (_, i) => item(withdrawal(i)));
    expect(planDeliveries(five, NOW)).toHaveLength(5);
    const six = Array.from({ length: 6 }, (_, i) => item(withdrawal(i)));
    const down: OutboxItem = {
      key: 'api_down:x',
      queuedAt: NOW.toISOString(),
      facts: { kind: 'api_down', since: NOW.toISOString(), problems: [] },
    };
    const plan = planDeliveries([down, ...six, item(gas(1))], NOW);
    expect(plan.map((d) => d.items.length)).toEqual([1, 6, 1]);
    expect(plan[1]!.message.text).toMatch(/^Open: 6 withdrawals failed/);
  });
});
