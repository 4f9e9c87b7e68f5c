/**
 * The stand-in's Block Kit rules, case by case from Slack's Block Kit reference (the examples and limits of
 * each block, element and composition object page), each with the exact problem Slack reports.
 */
import { describe, expect, it } from 'vitest';
import {
  ATTACHMENT_LIMITS,
  blocksTextLength,
  checkMessage,
  describeProblem,
  MESSAGE_LIMITS,
  refusalBody,
  validateAttachments,
  validateBlocks,
} from '../support/rig/block-kit-validation.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const x = (n: number) => 'x'.repeat(n);
const sectionOf = (text: string) => ({ type: 'section', text: mrkdwn(text) });
const buttonOf = (actionId: string, extra: Record<string, unknown> = {}) => ({
  type: 'button',
  text: plain('Go'),
  action_id: actionId,
  ...extra,
});
const actionsOf = (...elements: unknown[]) => ({ type: 'actions', elements });
const confirmOf = (extra: Record<string, unknown> = {}) => ({
  title: plain('Are you sure?'),
  text: plain("Wouldn't you prefer a good game of _chess_?"),
  confirm: plain('Do it'),
  deny: plain("Stop, I've changed my mind!"),
  ...extra,
});

/** The problems of one message's blocks, as `message @ pointer`. */
function problemsOf(...blocks: unknown[]): string[] {
  return validateBlocks(blocks).map((p) => `${p.message} @ ${p.pointer}`);
}

describe("Slack's own examples are accepted", () => {
  it('header, section with fields, context with image and mrkdwn, divider, actions with a confirmed button', () => {
    expect(
      problemsOf(
        { type: 'header', text: plain('A Heartfelt Header') },
        { type: 'section', text: mrkdwn('A message *with some bold text* and _some italicized text_.') },
        {
          type: 'section',
          fields: [mrkdwn('*Type:*\nPaid Time Off'), mrkdwn('*Created by:*\n<example.com|Fred Enriquez>')],
        },
        {
          type: 'context',
          elements: [
            {
              type: 'image',
              image_url: 'https://image.freepik.com/free-photo/red-drawing-pin_1156-445.jpg',
              alt_text: 'images',
            },
            mrkdwn('Location: **Dogpatch**'),
          ],
        },
        { type: 'divider' },
        actionsOf(
          { type: 'button', text: plain('Cancel'), value: 'cancel', action_id: 'button_1' },
          buttonOf('approve', { style: 'primary', confirm: confirmOf({ style: 'danger' }) }),
        ),
        {
          type: 'section',
          text: mrkdwn('Pick one'),
          accessory: buttonOf('accessory_button', { url: 'https://example.com' }),
        },
      ),
    ).toEqual([]);
  });

  it('every limit reached exactly, counted in characters (an emoji is one)', () => {
    expect(
      problemsOf(
        { type: 'header', text: plain(x(150)) },
        { type: 'section', block_id: x(255), text: mrkdwn('😀'.repeat(3000)) },
        { type: 'section', fields: Array.from({ length: 10 }, () => mrkdwn(x(2000))) },
        { type: 'context', elements: Array.from({ length: 10 }, () => plain(x(3000))) },
        actionsOf(
          ...Array.from({ length: 24 }, (_, i) => buttonOf(`b${i}`)),
          buttonOf(x(255), {
            text: plain(x(75)),
            value: x(2000),
            url: `https://e.xample/${x(2983)}`,
            confirm: confirmOf({
              title: plain(x(100)),
              text: mrkdwn(x(300)),
              confirm: plain(x(30)),
              deny: plain(x(30)),
            }),
          }),
        ),
      ),
    ).toEqual([]);
  });

  it('50 blocks', () => {
    expect(problemsOf(...Array.from({ length: 50 }, () => ({ type: 'divider' })))).toEqual([]);
  });
});

describe('message', () => {
  it('more than 50 blocks', () => {
    expect(problemsOf(...Array.from({ length: 51 }, () => ({ type: 'divider' })))).toEqual([
      'no more than 50 items allowed @ /blocks',
    ]);
  });

  it('a block type Slack does not know, and a block without a type', () => {
    expect(problemsOf({ type: 'paragraph', text: mrkdwn('hi') }, { text: mrkdwn('hi') }, 'section')).toEqual([
      'unsupported type: paragraph @ /blocks/0/type',
      'missing required field: type @ /blocks/1',
      'must be an object @ /blocks/2',
    ]);
  });

  it('block_id longer than 255 characters, and one used twice in the message', () => {
    expect(
      problemsOf(
        { type: 'divider', block_id: x(256) },
        { type: 'divider', block_id: 'a' },
        { type: 'section', block_id: 'a', text: mrkdwn('b') },
      ),
    ).toEqual(['must be less than 256 characters @ /blocks/0/block_id', 'duplicate block_id: a @ /blocks/2/block_id']);
  });
});

describe('section block', () => {
  it('text longer than 3000 characters (the error Slack answers verbatim)', () => {
    expect(problemsOf(sectionOf(x(3001)))).toEqual(['must be less than 3001 characters @ /blocks/0/text/text']);
  });

  it('empty text', () => {
    expect(problemsOf(sectionOf(''))).toEqual(['must be more than 0 characters @ /blocks/0/text/text']);
  });

  it('neither text nor fields, even with an accessory', () => {
    expect(problemsOf({ type: 'section', accessory: buttonOf('a') })).toEqual([
      'must define either `text` or `fields` @ /blocks/0/type',
    ]);
  });

  it('a text object of an unknown type, or without type or text', () => {
    expect(
      problemsOf(
        { type: 'section', text: { type: 'markdown', text: 'hi' } },
        { type: 'section', text: { text: 'hi' } },
        { type: 'section', text: { type: 'mrkdwn' } },
      ),
    ).toEqual([
      'unsupported type: markdown @ /blocks/0/text/type',
      'missing required field: type @ /blocks/1/text',
      'missing required field: text @ /blocks/2/text',
    ]);
  });

  it('text given as a string instead of a text object', () => {
    expect(problemsOf({ type: 'section', text: 'hi' })).toEqual(['must be an object @ /blocks/0/text']);
  });

  it('fields without text need at least one item', () => {
    expect(problemsOf({ type: 'section', fields: [] })).toEqual(['must provide at least 1 item @ /blocks/0/fields']);
    expect(problemsOf({ type: 'section', text: mrkdwn('a'), fields: [] })).toEqual([]);
  });

  it('more than 10 fields, and a field longer than 2000 characters', () => {
    expect(problemsOf({ type: 'section', fields: Array.from({ length: 11 }, () => mrkdwn('f')) })).toEqual([
      'no more than 10 items allowed @ /blocks/0/fields',
    ]);
    expect(problemsOf({ type: 'section', fields: [mrkdwn('a'), mrkdwn(x(2001))] })).toEqual([
      'must be less than 2001 characters @ /blocks/0/fields/1/text',
    ]);
  });

  it('an accessory that is not a section element', () => {
    expect(
      problemsOf({ type: 'section', text: mrkdwn('a'), accessory: { type: 'plain_text_input', action_id: 'i' } }),
    ).toEqual(['unsupported type: plain_text_input @ /blocks/0/accessory/type']);
  });
});

describe('header block', () => {
  it('plain_text only, at most 150 characters, text required', () => {
    expect(problemsOf({ type: 'header', text: mrkdwn('*Bold*') })).toEqual([
      'unsupported type: mrkdwn @ /blocks/0/text/type',
    ]);
    expect(problemsOf({ type: 'header', text: plain(x(151)) })).toEqual([
      'must be less than 151 characters @ /blocks/0/text/text',
    ]);
    expect(problemsOf({ type: 'header' })).toEqual(['missing required field: text @ /blocks/0']);
  });
});

describe('context block', () => {
  it('at most 10 elements, each text object at most 3000 characters, images need alt_text', () => {
    expect(problemsOf({ type: 'context', elements: Array.from({ length: 11 }, () => mrkdwn('c')) })).toEqual([
      'no more than 10 items allowed @ /blocks/0/elements',
    ]);
    expect(problemsOf({ type: 'context', elements: [mrkdwn(x(3001))] })).toEqual([
      'must be less than 3001 characters @ /blocks/0/elements/0/text',
    ]);
    expect(problemsOf({ type: 'context', elements: [{ type: 'image', image_url: 'https://e.xample/a.png' }] })).toEqual(
      ['missing required field: alt_text @ /blocks/0/elements/0'],
    );
    expect(problemsOf({ type: 'context', elements: [] })).toEqual([
      'must provide at least 1 item @ /blocks/0/elements',
    ]);
  });
});

describe('actions block', () => {
  it('two buttons sharing an action_id (the withdrawals pager bug)', () => {
    const oldPage2 = actionsOf(
      buttonOf('withdrawals_page', { text: plain('◀ Previous'), value: '1' }),
      buttonOf('withdrawals_page', { text: plain('Next ▶'), value: '3' }),
    );
    expect(problemsOf(oldPage2)).toEqual(['duplicate action_id: withdrawals_page @ /blocks/0/elements/1/action_id']);
    expect(refusalBody(checkMessage({ blocks: [oldPage2] })!)).toEqual({
      ok: false,
      error: 'invalid_blocks',
      errors: ['duplicate action_id: withdrawals_page [json-pointer:/blocks/0/elements/1/action_id]'],
      response_metadata: {
        messages: ['[ERROR] duplicate action_id: withdrawals_page [json-pointer:/blocks/0/elements/1/action_id]'],
      },
    });
  });

  it('the same action_id in two different blocks is fine ("unique among all other action_ids in the containing block")', () => {
    expect(
      problemsOf(actionsOf(buttonOf('share')), actionsOf(buttonOf('share')), {
        type: 'section',
        text: mrkdwn('a'),
        accessory: buttonOf('share'),
      }),
    ).toEqual([]);
  });

  it('more than 25 elements, none at all, or an element that is not interactive', () => {
    expect(problemsOf(actionsOf(...Array.from({ length: 26 }, (_, i) => buttonOf(`b${i}`))))).toEqual([
      'no more than 25 items allowed @ /blocks/0/elements',
    ]);
    expect(problemsOf(actionsOf())).toEqual(['must provide at least 1 item @ /blocks/0/elements']);
    expect(problemsOf({ type: 'actions' })).toEqual(['missing required field: elements @ /blocks/0']);
    expect(problemsOf(actionsOf(plain('not a button')))).toEqual([
      'unsupported type: plain_text @ /blocks/0/elements/0/type',
    ]);
  });
});

describe('button element', () => {
  const problemsOfButton = (button: unknown) => problemsOf(actionsOf(button));

  it('text: plain_text only, at most 75 characters, required', () => {
    expect(problemsOfButton(buttonOf('a', { text: mrkdwn('*Go*') }))).toEqual([
      'unsupported type: mrkdwn @ /blocks/0/elements/0/text/type',
    ]);
    expect(problemsOfButton(buttonOf('a', { text: plain(x(76)) }))).toEqual([
      'must be less than 76 characters @ /blocks/0/elements/0/text/text',
    ]);
    expect(problemsOfButton({ type: 'button', action_id: 'a' })).toEqual([
      'missing required field: text @ /blocks/0/elements/0',
    ]);
  });

  it('action_id at most 255, value at most 2000, url at most 3000, accessibility_label at most 75', () => {
    expect(problemsOfButton(buttonOf(x(256)))).toEqual([
      'must be less than 256 characters @ /blocks/0/elements/0/action_id',
    ]);
    expect(problemsOfButton(buttonOf('a', { value: x(2001) }))).toEqual([
      'must be less than 2001 characters @ /blocks/0/elements/0/value',
    ]);
    expect(problemsOfButton(buttonOf('a', { url: `https://e.xample/${x(2984)}` }))).toEqual([
      'must be less than 3001 characters @ /blocks/0/elements/0/url',
    ]);
    expect(problemsOfButton(buttonOf('a', { accessibility_label: x(76) }))).toEqual([
      'must be less than 76 characters @ /blocks/0/elements/0/accessibility_label',
    ]);
    expect(problemsOfButton(buttonOf('a', { value: 42 }))).toEqual(['must be a string @ /blocks/0/elements/0/value']);
  });

  it('style is primary or danger', () => {
    expect(problemsOfButton(buttonOf('a', { style: 'secondary' }))).toEqual([
      'must be one of: primary, danger @ /blocks/0/elements/0/style',
    ]);
  });
});

describe('confirmation dialog object', () => {
  const problemsOfConfirm = (confirm: unknown) => problemsOf(actionsOf(buttonOf('a', { confirm })));

  it('title, text, confirm and deny are all required', () => {
    expect(problemsOfConfirm({ title: plain('Sure?') })).toEqual([
      'missing required field: text @ /blocks/0/elements/0/confirm',
      'missing required field: confirm @ /blocks/0/elements/0/confirm',
      'missing required field: deny @ /blocks/0/elements/0/confirm',
    ]);
  });

  it('title at most 100, text at most 300, confirm and deny at most 30 characters', () => {
    expect(
      problemsOfConfirm(
        confirmOf({ title: plain(x(101)), text: plain(x(301)), confirm: plain(x(31)), deny: plain(x(31)) }),
      ),
    ).toEqual([
      'must be less than 101 characters @ /blocks/0/elements/0/confirm/title/text',
      'must be less than 301 characters @ /blocks/0/elements/0/confirm/text/text',
      'must be less than 31 characters @ /blocks/0/elements/0/confirm/confirm/text',
      'must be less than 31 characters @ /blocks/0/elements/0/confirm/deny/text',
    ]);
  });

  it('title, confirm and deny are plain_text; text may be mrkdwn', () => {
    expect(
      problemsOfConfirm(
        confirmOf({ title: mrkdwn('a'), text: mrkdwn('*sure?*'), confirm: mrkdwn('b'), deny: mrkdwn('c') }),
      ),
    ).toEqual([
      'unsupported type: mrkdwn @ /blocks/0/elements/0/confirm/title/type',
      'unsupported type: mrkdwn @ /blocks/0/elements/0/confirm/confirm/type',
      'unsupported type: mrkdwn @ /blocks/0/elements/0/confirm/deny/type',
    ]);
  });

  it('style is primary or danger', () => {
    expect(problemsOfConfirm(confirmOf({ style: 'warning' }))).toEqual([
      'must be one of: primary, danger @ /blocks/0/elements/0/confirm/style',
    ]);
  });
});

describe('checkMessage: the whole request as the chat methods see it', () => {
  it('blocks that are not an array (or not JSON) are invalid_blocks_format', () => {
    expect(checkMessage({ blocks: '[{"type":' })).toEqual({ error: 'invalid_blocks_format', problems: [] });
    expect(checkMessage({ blocks: { type: 'divider' } })).toEqual({ error: 'invalid_blocks_format', problems: [] });
    expect(checkMessage({ blocks: '[{"type":"divider"}]' })).toBeUndefined();
    expect(checkMessage({ text: 'just text' })).toBeUndefined();
  });

  it("invalid_blocks lists every problem, in Slack's `errors` and `[ERROR]` forms", () => {
    const refusal = checkMessage({ blocks: [sectionOf(x(3001)), { type: 'header', text: mrkdwn('h') }] });
    expect(refusal?.error).toBe('invalid_blocks');
    expect(refusalBody(refusal!)).toEqual({
      ok: false,
      error: 'invalid_blocks',
      errors: [
        'must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
        'unsupported type: mrkdwn [json-pointer:/blocks/1/text/type]',
      ],
      response_metadata: {
        messages: [
          '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
          '[ERROR] unsupported type: mrkdwn [json-pointer:/blocks/1/text/type]',
        ],
      },
    });
  });

  it('msg_blocks_too_long past 11,000 characters of block text, when asked (chat methods)', () => {
    const fourSections = Array.from({ length: 4 }, () => sectionOf(x(2750)));
    expect(blocksTextLength(fourSections)).toBe(11_000);
    expect(checkMessage({ blocks: fourSections }, { checkBlocksSize: true })).toBeUndefined();
    const tooMuch = [...fourSections, { type: 'context', elements: [mrkdwn('1')] }];
    expect(checkMessage({ blocks: tooMuch }, { checkBlocksSize: true })).toEqual({
      error: 'msg_blocks_too_long',
      problems: [],
    });
    expect(refusalBody(checkMessage({ blocks: tooMuch }, { checkBlocksSize: true })!)).toEqual({
      ok: false,
      error: 'msg_blocks_too_long',
    });
    expect(checkMessage({ blocks: tooMuch })).toBeUndefined();
    expect(checkMessage({ blocks: fourSections }, { checkBlocksSize: true, maxBlocksTextChars: 10_999 })?.error).toBe(
      'msg_blocks_too_long',
    );
  });

  it('msg_too_long past 40,000 characters of text, when asked (chat methods)', () => {
    expect(checkMessage({ text: x(MESSAGE_LIMITS.messageText) }, { checkTextSize: true })).toBeUndefined();
    expect(checkMessage({ text: x(40_001) }, { checkTextSize: true })).toEqual({ error: 'msg_too_long', problems: [] });
    expect(checkMessage({ text: x(40_001) })).toBeUndefined();
  });

  it('blocksTextLength counts every text string: headers, fields, context, buttons and their confirm dialogs', () => {
    const blocks = [
      { type: 'header', text: plain('12345') },
      { type: 'section', fields: [mrkdwn('12'), mrkdwn('34')] },
      { type: 'context', elements: [mrkdwn('1')] },
      actionsOf(
        buttonOf('a', {
          text: plain('Go'),
          value: 'not counted',
          confirm: confirmOf({ title: plain('T'), text: plain('X'), confirm: plain('Y'), deny: plain('N') }),
        }),
      ),
    ];
    expect(blocksTextLength(blocks)).toBe(5 + 4 + 1 + 2 + 4);
  });

  it('describeProblem writes the `[json-pointer:…]` form', () => {
    expect(describeProblem({ pointer: '/blocks', message: 'no more than 50 items allowed' })).toBe(
      'no more than 50 items allowed [json-pointer:/blocks]',
    );
  });
});

/** The problems of a message's attachments, as `message @ pointer`. */
function attachmentProblemsOf(...attachments: unknown[]): string[] {
  return validateAttachments(attachments).map((p) => `${p.message} @ ${p.pointer}`);
}

describe('legacy secondary attachments ("Legacy secondary message attachments" reference)', () => {
  it("Slack's own examples: blocks beside a colour bar, and the legacy fields", () => {
    expect(
      attachmentProblemsOf(
        {
          color: '#E01E5A',
          fallback: 'Open: Withdrawal failed',
          blocks: [sectionOf('facts'), actionsOf(buttonOf('a'))],
        },
        { color: 'good', blocks: [] },
        {
          mrkdwn_in: ['text'],
          color: '#36a64f',
          pretext: 'Optional pre-text that appears above the attachment block',
          author_name: 'author_name',
          title: 'title',
          title_link: 'https://api.slack.com/',
          text: 'Optional `text` that appears within the attachment',
          fields: [{ title: "A field's title", value: "This field's value", short: false }],
          footer: 'footer',
          ts: 123456789,
        },
      ),
    ).toEqual([]);
  });

  it('color is good, warning, danger or a hex colour code', () => {
    for (const color of ['good', 'warning', 'danger', '#439FE0', '#fff', '2eb886'])
      expect(attachmentProblemsOf({ color, fallback: 'x' })).toEqual([]);
    for (const color of ['red', '#12345', 'rgb(0,0,0)', 7])
      expect(attachmentProblemsOf({ color, fallback: 'x' })).toEqual([
        'must be good, warning, danger or a hex color code (eg. #439FE0) @ /attachments/0/color',
      ]);
  });

  it('blocks inside an attachment are held to the rules of a message’s blocks, 50 at most', () => {
    const duplicate = actionsOf(buttonOf('alert_snooze'), buttonOf('alert_snooze'));
    expect(attachmentProblemsOf({ color: 'good', blocks: [sectionOf(x(3001)), duplicate] })).toEqual([
      'must be less than 3001 characters @ /attachments/0/blocks/0/text/text',
      'duplicate action_id: alert_snooze @ /attachments/0/blocks/1/elements/1/action_id',
    ]);
    const fifty = Array.from({ length: ATTACHMENT_LIMITS.blocks }, () => ({ type: 'divider' }));
    expect(attachmentProblemsOf({ blocks: fifty })).toEqual([]);
    expect(attachmentProblemsOf({ blocks: [...fifty, { type: 'divider' }] })).toEqual([
      'no more than 50 items allowed @ /attachments/0/blocks',
    ]);
    expect(attachmentProblemsOf({ blocks: { type: 'divider' } })).toEqual(['must be an array @ /attachments/0/blocks']);
  });

  it('an attachment with blocks takes no legacy field, not even an empty text or a false flag', () => {
    expect(attachmentProblemsOf({ color: 'good', text: '', blocks: [sectionOf('x')] })).toEqual([
      'cannot be used together with blocks @ /attachments/0/text',
    ]);
    expect(attachmentProblemsOf({ blocks: [sectionOf('x')], is_app_unfurl: false })).toEqual([
      'cannot be used together with blocks @ /attachments/0/is_app_unfurl',
    ]);
  });

  it('an attachment is an object, its fallback and legacy texts strings, its fields objects', () => {
    expect(attachmentProblemsOf('just text', { fallback: 7, title: ['t'], fields: [{ title: 1 }, 'x'] })).toEqual([
      'must be an object @ /attachments/0',
      'must be a string @ /attachments/1/fallback',
      'must be a string @ /attachments/1/title',
      'must be a string @ /attachments/1/fields/0/title',
      'must be an object @ /attachments/1/fields/1',
    ]);
  });

  it('checkMessage: invalid_attachments (not a list, not JSON, a bad one), too_many_attachments past 100', () => {
    expect(checkMessage({ attachments: '[{"color":' })).toMatchObject({ error: 'invalid_attachments' });
    expect(checkMessage({ attachments: { color: 'good' } })).toMatchObject({ error: 'invalid_attachments' });
    expect(checkMessage({ attachments: '[{"color":"good","fallback":"x"}]' })).toBeUndefined();
    const refusal = checkMessage({ text: 'x', attachments: [{ color: 'red', blocks: [] }] });
    expect(refusalBody(refusal!)).toMatchObject({
      ok: false,
      error: 'invalid_attachments',
      errors: ['must be good, warning, danger or a hex color code (eg. #439FE0) [json-pointer:/attachments/0/color]'],
    });
    const hundred = Array.from({ length: ATTACHMENT_LIMITS.attachments }, () => ({ fallback: 'x' }));
    expect(checkMessage({ attachments: hundred })).toBeUndefined();
    expect(checkMessage({ attachments: [...hundred, { fallback: 'x' }] })).toEqual({
      error: 'too_many_attachments',
      problems: [],
    });
  });
});
