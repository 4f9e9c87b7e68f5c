/**
 * Modals in the Slack stand-in, held to Slack's rules: `views.open` takes a trigger_id for 3 seconds and once
 * (`expired_trigger_id`, `exchanged_trigger_id`, `invalid_trigger_id`), refuses a view that breaks the modal limits
 * (`invalid_arguments` with Slack's `[ERROR] … [json-pointer:…]` lines), and `views.update` honours `hash`.
 * Driven through Bolt's own WebClient over HTTP.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { triggerId } from '../../dev/workspace/slack-requests.js';
import { buildResetPicker } from '../../src/features/second-factor/blocks.js';
import { MODAL_LIMITS, validateModalView } from '../support/rig/block-kit-validation.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/index.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';

const token = 'xoxb-modals';
const plain = (text: string) => ({ type: 'plain_text', text });
const noteInput = (extra: Record<string, unknown> = {}) => ({
  type: 'input',
  block_id: 'note',
  label: plain('What was done'),
  element: { type: 'plain_text_input', action_id: 'note', multiline: true, max_length: 3000, ...extra },
});
const resolveModal = (extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  callback_id: 'alert_resolve',
  title: plain('Resolve alert'),
  submit: plain('Resolve'),
  close: plain('Cancel'),
  private_metadata: JSON.stringify({ alert: 'a1', version: 1 }),
  blocks: [noteInput()],
  ...extra,
});

const now = Date.parse('2026-11-24T09:00:00.000Z');
let slack: SlackStandIn;
let client: webApi.WebClient;

beforeAll(async () => {
  slack = await startSlackStandIn({ botToken: token, now: () => now });
  client = new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: silentWebApiLogger,
  });
});
afterAll(() => slack?.close());
beforeEach(() => slack.reset());

async function answer(call: Promise<unknown>): Promise<{ error: string; messages?: string[] }> {
  try {
    await call;
    return { error: 'ok' };
  } catch (error) {
    const data = (error as { data?: { error?: string; response_metadata?: { messages?: string[] } } }).data;
    return {
      error: data?.error ?? String(error),
      ...(data?.response_metadata?.messages ? { messages: data.response_metadata.messages } : {}),
    };
  }
}

describe('views.open and the trigger_id', () => {
  it('opens a valid modal with a fresh trigger, once', async () => {
    const trigger = triggerId(now);
    const opened = await client.views.open({ trigger_id: trigger, view: resolveModal() as never });
    expect(opened.view).toMatchObject({ type: 'modal', callback_id: 'alert_resolve', title: plain('Resolve alert') });
    expect(slack.views()).toHaveLength(1);
    expect(slack.views()[0]).toMatchObject({ triggerId: trigger, view: { callback_id: 'alert_resolve' } });
    expect(await answer(client.views.open({ trigger_id: trigger, view: resolveModal() as never }))).toEqual({
      error: 'exchanged_trigger_id',
    });
    expect(slack.views()).toHaveLength(1);
  });

  it.each([
    [3000, 'ok'],
    [3001, 'expired_trigger_id'],
  ])('a trigger %i ms old → %s', async (age, expected) => {
    const trigger = triggerId(now - age);
    expect((await answer(client.views.open({ trigger_id: trigger, view: resolveModal() as never }))).error).toBe(
      expected,
    );
  });

  it.each(['', 'not-a-trigger', '123.456'])('trigger %j → invalid_trigger_id', async (trigger) => {
    expect((await answer(client.views.open({ trigger_id: trigger, view: resolveModal() as never }))).error).toBe(
      'invalid_trigger_id',
    );
  });

  it('a refused view does not use up the trigger', async () => {
    const trigger = triggerId(now);
    const refused = await answer(
      client.views.open({ trigger_id: trigger, view: resolveModal({ title: plain('x'.repeat(25)) }) as never }),
    );
    expect(refused).toEqual({
      error: 'invalid_arguments',
      messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'],
    });
    expect((await answer(client.views.open({ trigger_id: trigger, view: resolveModal() as never }))).error).toBe('ok');
  });
});

describe('views.update', () => {
  it('replaces the view; with a stale hash it answers hash_conflict', async () => {
    const opened = await client.views.open({ trigger_id: triggerId(now), view: resolveModal() as never });
    const id = opened.view?.id ?? '';
    const hash = opened.view?.hash ?? '';
    const updated = await client.views.update({
      view_id: id,
      hash,
      view: resolveModal({ title: plain('Resolved') }) as never,
    });
    expect(updated.view?.title).toEqual(plain('Resolved'));
    expect(await answer(client.views.update({ view_id: id, hash, view: resolveModal() as never }))).toEqual({
      error: 'hash_conflict',
    });
    expect(await answer(client.views.update({ view_id: 'V0NONE', view: resolveModal() as never }))).toEqual({
      error: 'not_found',
    });
  });
});

describe('validateModalView: the modal limits', () => {
  const x = (n: number) => 'x'.repeat(n);
  it('accepts the resolve modal', () => {
    expect(validateModalView(resolveModal())).toEqual([]);
  });

  it.each([
    ['title of 25', { title: plain(x(25)) }, '/view/title/text', 'must be less than 25 characters'],
    ['submit of 25', { submit: plain(x(25)) }, '/view/submit/text', 'must be less than 25 characters'],
    ['close of 25', { close: plain(x(25)) }, '/view/close/text', 'must be less than 25 characters'],
    ['a mrkdwn title', { title: { type: 'mrkdwn', text: 'x' } }, '/view/title/type', 'unsupported type: mrkdwn'],
    ['no title', { title: undefined }, '/view', 'missing required field: title'],
    ['a home view', { type: 'home' }, '/view/type', 'unsupported type: home'],
    [
      '101 blocks',
      { blocks: Array.from({ length: 101 }, () => ({ type: 'divider' })) },
      '/view/blocks',
      'no more than 100 items allowed',
    ],
    [
      'private_metadata of 3,001',
      { private_metadata: x(3001) },
      '/view/private_metadata',
      'must be less than 3001 characters',
    ],
    ['callback_id of 256', { callback_id: x(256) }, '/view/callback_id', 'must be less than 256 characters'],
    ['inputs without submit', { submit: undefined }, '/view', 'submit is required when the view has input blocks'],
    [
      'an input label of 2,001',
      { blocks: [{ ...noteInput(), label: plain(x(2001)) }] },
      '/view/blocks/0/label/text',
      'must be less than 2001 characters',
    ],
    [
      'an input without element',
      { blocks: [{ type: 'input', label: plain('Note') }] },
      '/view/blocks/0',
      'missing required field: element',
    ],
    [
      'max_length 3,001',
      { blocks: [noteInput({ max_length: 3001 })] },
      '/view/blocks/0/element/max_length',
      'must be between 1 and 3000',
    ],
    [
      'min_length above max_length',
      { blocks: [noteInput({ min_length: 10, max_length: 5 })] },
      '/view/blocks/0/element/min_length',
      'must not be more than max_length',
    ],
    [
      'an input holding a button',
      { blocks: [{ ...noteInput(), element: { type: 'button', text: plain('x'), action_id: 'b' } }] },
      '/view/blocks/0/element/type',
      'unsupported type: button',
    ],
  ])('%s', (_name, change, pointer, message) => {
    const view = Object.fromEntries(Object.entries(resolveModal(change)).filter(([, value]) => value !== undefined));
    expect(validateModalView(view)).toContainEqual({ pointer, message });
  });

  it('checks a static select (the Snooze menu): 1–100 options, text ≤ 75, value ≤ 150', () => {
    const select = (options: unknown[]) => ({
      type: 'actions',
      elements: [{ type: 'static_select', action_id: 'snooze', placeholder: plain('Snooze'), options }],
    });
    const option = (text: string, value: string) => ({ text: plain(text), value });
    expect(validateModalView(resolveModal({ blocks: [select([option('1 hour', '1h')])] }))).toEqual([]);
    expect(validateModalView(resolveModal({ blocks: [select([option(x(76), 'v')])] }))).toContainEqual({
      pointer: '/view/blocks/0/elements/0/options/0/text/text',
      message: 'must be less than 76 characters',
    });
    expect(validateModalView(resolveModal({ blocks: [select([option('a', x(151))])] }))).toContainEqual({
      pointer: '/view/blocks/0/elements/0/options/0/value',
      message: 'must be less than 151 characters',
    });
    expect(
      validateModalView(
        resolveModal({ blocks: [select(Array.from({ length: 101 }, (_, i) => option(`${i}`, `${i}`)))] }),
      ),
    ).toContainEqual({
      pointer: '/view/blocks/0/elements/0/options',
      message: `no more than ${MODAL_LIMITS.selectOptions} items allowed`,
    });
  });

  it('checks a user menu (the second factor reset picker): a plain_text placeholder ≤ 150, initial_user a member id', () => {
    expect(validateModalView(buildResetPicker())).toEqual([]);
    expect(validateModalView(buildResetPicker(`@${x(200)}`))).toEqual([]);
    const picker = (element: Record<string, unknown>) =>
      resolveModal({
        blocks: [
          { type: 'input', label: plain('Person'), element: { type: 'users_select', action_id: 'p', ...element } },
        ],
      });
    expect(validateModalView(picker({ initial_user: 'U0AVERY' }))).toEqual([]);
    expect(validateModalView(picker({ initial_user: '@avery' }))).toContainEqual({
      pointer: '/view/blocks/0/element/initial_user',
      message: 'must be a user ID',
    });
    expect(validateModalView(picker({ placeholder: plain(x(151)) }))).toContainEqual({
      pointer: '/view/blocks/0/element/placeholder/text',
      message: 'must be less than 151 characters',
    });
    expect(validateModalView(picker({ placeholder: { type: 'mrkdwn', text: 'who' } }))).toContainEqual({
      pointer: '/view/blocks/0/element/placeholder/type',
      message: 'unsupported type: mrkdwn',
    });
  });
});
