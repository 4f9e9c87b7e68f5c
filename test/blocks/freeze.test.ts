// The freeze's messages as pure builders: who, when and why (the reason escaped), the Unfreeze button carrying the
// freeze it announces, the votes so far, the lifted form without a button; all within Slack's limits.
import { describe, expect, it } from 'vitest';
import { buildFreezeAnnouncement, buildFreezeState, buildUnfrozenLine } from '../../src/features/freeze/blocks.js';
import { type FreezeRecord, MAX_FREEZE_REASON_LENGTH } from '../../src/features/freeze/rules.js';
import { expectWithinSlackLimits } from '../support/block-limits.js';
import { blocksToText, findButtons } from '../support/rig/blocks-text.js';

const FREEZE: FreezeRecord = {
  frozenBy: 'U0AVERY',
  frozenAt: '2026-11-28T09:00:00.000Z',
  reason: '<!channel> leaked *token* & more',
  until: '2026-11-28T11:00:00.000Z',
  unfreezeVotes: [],
};

describe('freeze messages', () => {
  it('the announcement: who, when, why (escaped), until when, the quorum and Unfreeze carrying the freeze', () => {
    const message = buildFreezeAnnouncement(FREEZE, 2);
    const text = blocksToText(message.blocks);
    expect(text).toContain('Money is frozen by <@U0AVERY> since 2026-11-28 09:00 UTC');
    expect(text).toContain('&lt;!channel&gt; leaked *token* &amp; more');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('ends by itself at 2026-11-28 11:00 UTC');
    expect(text).toContain('needs 2 distinct admins');
    expect(findButtons(message.blocks)).toMatchObject([
      { actionId: 'freeze_unfreeze', text: 'Unfreeze', value: FREEZE.frozenAt },
    ]);
    expectWithinSlackLimits(message);
  });

  it('shows the votes so far, and once lifted has no button and names who lifted it', () => {
    const voted = { ...FREEZE, unfreezeVotes: [{ by: 'U0RILEY', at: '2026-11-28T09:05:00.000Z' }] };
    expect(blocksToText(buildFreezeAnnouncement(voted, 2).blocks)).toContain('so far: <@U0RILEY>');
    const both = { ...voted, unfreezeVotes: [...voted.unfreezeVotes, { by: 'U0AVERY', at: '2026-11-28T09:06:00Z' }] };
    const lifted = buildFreezeAnnouncement(both, 2, { lifted: true });
    expect(findButtons(lifted.blocks)).toEqual([]);
    expect(blocksToText(lifted.blocks)).toContain('Lifted by <@U0RILEY>, <@U0AVERY>');
    expect(blocksToText(buildUnfrozenLine(both, 2).blocks)).toContain('lifted by <@U0RILEY>, <@U0AVERY> (2 of 2)');
  });

  it('the state: none, or the freeze in force; the longest reason stays within the limits', () => {
    expect(buildFreezeState(undefined, 2).text).toContain('Nothing is frozen');
    const long = { ...FREEZE, reason: '&'.repeat(MAX_FREEZE_REASON_LENGTH) };
    for (const message of [buildFreezeState(long, 2), buildFreezeAnnouncement(long, 3)])
      expectWithinSlackLimits(message);
  });
});
