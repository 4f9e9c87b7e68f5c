// `/treasury 2fa reset` with Slack's own user picker, end to end: the real app over signed HTTP with the Slack
// stand-in. Slack sends a typed `@avery` as plain text (the command's manifest has should_escape false), so an
// admin's `2fa reset @avery` (or `2fa reset` alone) opens a modal with a users_select; submitting it with Avery
// resets her enrolment (recorded as by the admin, Avery and the admin told by DM), nobody picked or nobody to reset
// is an error under the menu, and a non-admin is refused before any modal. A member id typed still resets at once.
// When the admins are a user group Slack is slow to list, the picker still opens within the trigger's 3 s, and Reset
// refuses until the bot knows the person is an admin (unknown fails closed).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_IDS } from '../../src/blocks/ids.js';
import { RESET_PERSON } from '../../src/features/second-factor/blocks.js';
import { APPROVER_GROUPS_TTL_MS } from '../../src/features/swaps/approver-groups.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask } from '../support/slack.js';
import { enrol } from './enrolment.js';

const ADMIN = 'U0ADMIN';
const AVERY = 'U0AVERY';
const RILEY = 'U0RILEY';

describe('/treasury 2fa reset opens a person picker', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({
      env: {
        TREASURY_ADMINS: ADMIN,
        TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        SWAP_STEP_UP_USD: '50000',
        ALERT_CHANNEL: 'C0ALERTS',
        POLL_SCHEDULE: '0 0 1 1 *',
      },
    });
  }, 60_000);
  afterAll(() => stack?.close());

  /** Types `/treasury <text>` as `userId` and waits for the picker it opens; nothing is posted on the response_url. */
  async function openPicker(text: string, userId = ADMIN) {
    const before = stack.slack.views().length;
    const result = await stack.driver.command(text, { userId });
    expect(result.status).toBe(200);
    const opened = await stack.slack.waitFor(() => stack.slack.views()[before], 10_000, 'the reset picker');
    expect(opened.view.callback_id).toBe(VIEW_IDS.secondFactorReset);
    expect(result.responses()).toEqual([]);
    return opened;
  }

  it("an admin's `2fa reset @avery` opens the picker; picking Avery resets her, recorded and told", async () => {
    await enrol(stack, AVERY, ADMIN);
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *enrolled*');

    const picker = await openPicker('2fa reset @avery');
    expect(picker.view).toMatchObject({
      type: 'modal',
      title: { type: 'plain_text', text: 'Reset a second factor' },
      submit: { type: 'plain_text', text: 'Reset' },
    });
    const input = (picker.view.blocks as Record<string, unknown>[]).find((b) => b.type === 'input');
    expect(input).toMatchObject({
      block_id: RESET_PERSON.blockId,
      element: { type: 'users_select', action_id: RESET_PERSON.actionId },
    });
    expect((input!.element as Record<string, unknown>).initial_user).toBeUndefined();
    const shown = JSON.stringify(picker.view.blocks);
    expect(shown).toContain('/treasury 2fa enroll');
    expect(shown).toContain('You typed “@avery”');

    // Nobody picked: an error under the menu, nothing changes.
    expect(await stack.driver.submitView(picker, { userId: ADMIN })).toEqual({
      response_action: 'errors',
      errors: { [RESET_PERSON.blockId]: 'Nobody picked: choose the person whose second factor to reset.' },
    });
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *enrolled*');

    // Avery picked: the modal closes (empty answer), and she is reset.
    const before = stack.slack.messages().length;
    expect(
      await stack.driver.submitView(picker, {
        userId: ADMIN,
        values: { [RESET_PERSON.blockId]: { [RESET_PERSON.actionId]: AVERY } },
      }),
    ).toBeNull();
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *not enrolled*');
    const trail = await stack.store.secondFactor.listSecondFactorTrail(new Date(0));
    expect(trail.at(-1)).toMatchObject({ event: 'reset', userId: AVERY, by: ADMIN });
    // Avery is told by DM; the admin gets the confirmation by DM.
    const told = await stack.slack.waitFor(
      () =>
        stack.slack
          .messages()
          .slice(before)
          .find((m) => m.channel.startsWith('D') && (m.text ?? '').includes('reset your second factor')),
      10_000,
      "Avery's reset notice",
    );
    expect(stack.slack.isMember(told.channel, AVERY)).toBe(true);
    const confirmed = await stack.slack.waitFor(
      () =>
        stack.slack
          .messages()
          .slice(before)
          .find((m) => m.channel.startsWith('D') && (m.text ?? '').includes("<@U0AVERY>'s second factor is reset")),
      10_000,
      "the admin's confirmation",
    );
    expect(stack.slack.isMember(confirmed.channel, ADMIN)).toBe(true);
    expect(confirmed.text).toContain('(it was enrolled)');

    // The same picker again: Avery has nothing left to reset, said under the menu.
    const again = await openPicker('2fa reset');
    expect(JSON.stringify(again.view.blocks)).not.toContain('You typed');
    expect(
      await stack.driver.submitView(again, {
        userId: ADMIN,
        values: { [RESET_PERSON.blockId]: { [RESET_PERSON.actionId]: AVERY } },
      }),
    ).toEqual({
      response_action: 'errors',
      errors: { [RESET_PERSON.blockId]: 'That person has no second factor: nothing to reset.' },
    });
  });

  it('a non-admin is refused in plain words, and no modal opens', async () => {
    const views = stack.slack.views().length;
    const refused = await ask(stack, '2fa reset @avery', { userId: RILEY });
    expect(refused.text).toContain('Only treasury admins (`TREASURY_ADMINS`) can reset a second factor.');
    expect((await ask(stack, '2fa reset', { userId: RILEY })).text).toContain('Only treasury admins');
    expect(stack.slack.views().length).toBe(views);
  });

  it("a non-admin's submission of the picker (an admin's modal, replayed) is refused as a whole", async () => {
    await enrol(stack, AVERY, ADMIN);
    const picker = await openPicker('2fa reset avery');
    const answer = await stack.driver.submitView(picker, {
      userId: RILEY,
      values: { [RESET_PERSON.blockId]: { [RESET_PERSON.actionId]: AVERY } },
    });
    expect(answer).toMatchObject({
      response_action: 'update',
      view: {
        title: { text: 'Nothing was reset' },
        blocks: [{ text: { text: expect.stringContaining('Only treasury admins') } }],
      },
    });
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *enrolled*');
  });

  it('a member id typed still resets at once, with no modal', async () => {
    const views = stack.slack.views().length;
    const reset = await ask(stack, `2fa reset ${AVERY}`, { userId: ADMIN });
    expect(reset.text).toContain("<@U0AVERY>'s second factor is reset (it was enrolled)");
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *not enrolled*');
    expect(stack.slack.views().length).toBe(views);
  });
});

describe('/treasury 2fa reset when the admins are a user group Slack is slow to list', () => {
  const LEADS = { id: 'S0ADMINS', handle: 'treasury-admins', name: 'Treasury admins', users: [ADMIN] };
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({
      env: {
        TREASURY_ADMINS: LEADS.id,
        TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        ALERT_CHANNEL: 'C0ALERTS',
        POLL_SCHEDULE: '0 0 1 1 *',
      },
      slack: { usergroups: [LEADS] },
    });
  }, 60_000);
  afterAll(() => stack?.close());

  it('the picker opens within the trigger anyway; Reset refuses while admin-ness is unknown, and works once it is known', async () => {
    await enrol(stack, AVERY, ADMIN);
    // Confirming the enrolment listed the admins' group: past the listing cache's life, the next check asks Slack.
    stack.simulator.advanceTime(APPROVER_GROUPS_TTL_MS + 1_000);
    // The listing takes 5 s: longer than the command's trigger lives and the submission's 3 s.
    stack.slack.failNext('usergroups.users.list', { delayMs: 5_000 });
    const asked = Date.now();
    const result = await stack.driver.command('2fa reset @avery', { userId: ADMIN });
    expect(result.status).toBe(200);
    const picker = await stack.slack.waitFor(() => stack.slack.views()[0], 10_000, 'the reset picker');
    // Opened by the stand-in's rules: a trigger at most 3 s old.
    expect(picker.openedAt - asked).toBeLessThan(3_000);
    const values = { [RESET_PERSON.blockId]: { [RESET_PERSON.actionId]: AVERY } };
    const unknown = await stack.driver.submitView(picker, { userId: ADMIN, values });
    expect(unknown).toMatchObject({
      response_action: 'update',
      view: {
        blocks: [{ text: { text: expect.stringContaining('could not confirm that you are a treasury admin') } }],
      },
    });
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *enrolled*');
    // Once Slack's listing lands (5 s after it was asked), the same form resets; until then each Reset refuses.
    let answer: Record<string, unknown> | null = unknown;
    while (answer !== null && Date.now() - asked < 15_000) {
      expect(answer).toMatchObject({ response_action: 'update' });
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await stack.driver.submitView(picker, { userId: ADMIN, values });
    }
    expect(answer).toBeNull();
    expect(Date.now() - asked).toBeGreaterThan(4_500);
    expect((await ask(stack, '2fa', { userId: AVERY })).text).toContain('You are *not enrolled*');
  }, 30_000);
});
