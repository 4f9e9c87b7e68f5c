/**
 * The payout form end to end: the real app, the payment API simulator over HTTP and the Slack stand-in, everything
 * sent as Slack sends it (signed HTTP). `/treasury payout create` with no arguments opens the form with the
 * command's trigger; choosing the asset updates the preview; a missing name is refused under the field with no API
 * call; a submission sent twice makes one proposal, answered on the command's response_url with the typed command's
 * Create payout and Cancel, and Create payout (confirmed) makes one container; while frozen it is refused under the
 * field in the freeze's words.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksToText } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { OpenedView } from '../support/rig/slack-stand-in.js';
import { ask, click, toAnswer } from '../support/slack.js';

const RILEY = 'U0RILEY';
const ADMIN = 'U0ADMIN';
const F = { asset: 'form_payout_asset', name: 'form_payout_name' };

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack({ env: { SWAP_APPROVERS: ADMIN } });
});
afterAll(() => stack?.close());
beforeEach(() => {
  stack.simulator.resetRequests();
  stack.slack.reset();
});

const viewText = (view: OpenedView | undefined) =>
  `${blocksToText((view?.view.blocks as unknown[]) ?? [])}\n${JSON.stringify(view?.view ?? {})}`;
const current = (id: string) => stack.slack.views().find((v) => v.id === id)!;
const formShowing = (id: string, pattern: RegExp) =>
  stack.slack.waitFor(
    () => (pattern.test(viewText(current(id))) ? current(id) : undefined),
    10_000,
    `the form showing ${pattern}`,
  );

async function openPayoutForm() {
  const result = await stack.driver.command('payout create', { userId: RILEY });
  expect(result.status).toBe(200);
  const form = await stack.slack.waitFor(() => stack.slack.views()[0], 5_000, 'the payout form opened');
  return { result, form: await formShowing(form.id, /USDT on [^·]+ · /) };
}

describe('the payout form', () => {
  it('opens with the command’s trigger and previews the proposal for the asset chosen', async () => {
    const { form } = await openPayoutForm();
    expect(form.view.callback_id).toBe('form_payout');
    const usdtBsc = stack.simulator.ids.assets.usdtBsc;
    await stack.driver.useInView(form, F.asset, F.asset, {
      values: { [F.asset]: { [F.asset]: usdtBsc } },
      userId: RILEY,
    });
    const text = viewText(await formShowing(form.id, /Proposes an empty payout container/));
    expect(text).toContain('Proposes an empty payout container in *USDT* on BNB Smart Chain (BSC)');
    expect(text).toContain('Balance now: 48,210.5 USDT');
    expect(text).toContain('nothing is sent to the payment service until you confirm it');
    expect(stack.simulator.requestCount('createPayout')).toBe(0);
  });

  it('refuses a missing name under the field, with no API call', async () => {
    const { form } = await openPayoutForm();
    stack.simulator.resetRequests();
    const answer = await stack.driver.submitView(form, {
      values: { [F.asset]: { [F.asset]: stack.simulator.ids.assets.usdtBsc }, [F.name]: { [F.name]: '   ' } },
      userId: RILEY,
    });
    expect(answer).toMatchObject({
      response_action: 'errors',
      errors: { [F.name]: 'The payout needs a name, e.g. "November affiliates".' },
    });
    expect(stack.simulator.requestCount()).toBe(0);
  });

  it('makes one proposal when the submission comes twice; Create payout then makes one container', async () => {
    const { result, form } = await openPayoutForm();
    const values = {
      [F.asset]: { [F.asset]: stack.simulator.ids.assets.usdtBsc },
      [F.name]: { [F.name]: 'November affiliates' },
    };
    const answers = await Promise.all([
      stack.driver.submitView(form, { values, userId: RILEY }),
      stack.driver.submitView(form, { values, userId: RILEY }),
    ]);
    expect(answers).toEqual([null, null]);
    const [reply] = await result.waitForResponses(1);
    const proposal = toAnswer(result, reply!);
    expect(proposal.text).toContain('Create a payout container?');
    expect(proposal.text).toContain('*Name:* November affiliates');
    expect(proposal.buttons.map((b) => b.text)).toEqual(['Create payout', 'Cancel']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(result.responses()).toHaveLength(1);
    expect(stack.simulator.requestCount('createPayout')).toBe(0);
    const created = await click(stack, proposal, 'payout_create', { userId: RILEY });
    expect(created.text).toMatch(/created/i);
    expect(stack.simulator.requestCount('createPayout')).toBe(1);
  });

  it('while money is frozen, its submission is refused under the field in the freeze’s words', async () => {
    expect((await ask(stack, 'freeze testing the payout form', { userId: ADMIN })).text).toMatch(/frozen/i);
    const { form } = await openPayoutForm();
    const answer = await stack.driver.submitView(form, {
      values: { [F.asset]: { [F.asset]: stack.simulator.ids.assets.usdtBsc }, [F.name]: { [F.name]: 'Bonuses' } },
      userId: RILEY,
    });
    expect(answer).toMatchObject({
      response_action: 'errors',
      errors: { [F.asset]: expect.stringMatching(/^Money is frozen by @U0ADMIN .*No payout container was proposed/) },
    });
  });
});
