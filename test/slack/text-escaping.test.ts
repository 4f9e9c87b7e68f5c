// Text as Slack sends it: a person types `R&D <beta>`, Slack hands the app `R&amp;D &lt;beta&gt;`. The bot
// decodes that once at the edge, the payment API stores what was typed, and the reply escapes it once for mrkdwn
// (Slack shows `R&D <beta>` again) and leaves it literal in plain_text. The driver escapes what a test types
// exactly as Slack does, so these tests type what a person would.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slashCommandBody } from '../../dev/workspace/slack-requests.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { type Answer, ask } from '../support/slack.js';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.simulator.resetRequests());

/** The body of the one invoice-create call the simulator received. */
function createdInvoice(): Record<string, unknown> {
  const calls = stack.simulator.requests.filter(
    (r) => r.operation === 'createInvoice' || r.operation === 'createInvoiceByCrypto',
  );
  expect(calls).toHaveLength(1);
  return calls[0]!.body as Record<string, unknown>;
}

type TextObject = { type: string; text: string };

/** Every text object in the reply's blocks, confirm dialogs included. */
function textObjects(answer: Answer): TextObject[] {
  const found: TextObject[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const v = value as Record<string, unknown>;
    if ((v.type === 'plain_text' || v.type === 'mrkdwn') && typeof v.text === 'string')
      found.push({ type: v.type, text: v.text });
    Object.values(v).forEach(walk);
  };
  walk(answer.reply.blocks);
  return found;
}

const headerOf = (answer: Answer) =>
  textObjects(answer).find((t) => t.type === 'plain_text' && t.text.startsWith('Invoice'))?.text;
const fieldOf = (answer: Answer, label: string) =>
  textObjects(answer)
    .find((t) => t.type === 'mrkdwn' && t.text.startsWith(`*${label}*\n`))
    ?.text.slice(label.length + 3);

describe('the stand-in sends command text as Slack does', () => {
  it('escapes `&`, `<` and `>` (and only those) in what the person typed', () => {
    const body = slashCommandBody(
      { id: 'T1', domain: 'team', appId: 'A1' },
      { id: 'U1', name: 'riley' },
      { id: 'C1', name: 'treasury' },
      '/treasury',
      `invoice $5 R&D <beta> "q" 'q' 🚀`,
      'https://hooks.example/1',
    );
    expect(new URLSearchParams(body).get('text')).toBe(`invoice $5 R&amp;D &lt;beta&gt; "q" 'q' 🚀`);
  });

  it("sends text unchanged when asked for raw (Slack's own markup)", () => {
    const body = slashCommandBody(
      { id: 'T1', domain: 'team', appId: 'A1' },
      { id: 'U1', name: 'riley' },
      { id: 'C1', name: 'treasury' },
      '/treasury',
      'for <@U0RILEY|riley>',
      'https://hooks.example/1',
      { raw: true },
    );
    expect(new URLSearchParams(body).get('text')).toBe('for <@U0RILEY|riley>');
  });
});

describe('an invoice title typed with `&`, `<` and `>`', () => {
  it('`invoice $5 R&D <beta>` reaches the payment API as typed, and the reply shows it once', async () => {
    const answer = await ask(stack, 'invoice $5 R&D <beta>');
    expect(createdInvoice()).toMatchObject({ productTitle: 'R&D <beta>' });
    // plain_text is literal; mrkdwn is escaped once (Slack renders `R&amp;D &lt;beta&gt;` as `R&D <beta>`).
    expect(headerOf(answer)).toBe('Invoice created: $5.00 — R&D <beta>');
    expect(fieldOf(answer, 'Title')).toBe('R&amp;D &lt;beta&gt;');
    expect(answer.reply.text).toMatch(/^Invoice created: \$5\.00 — R&amp;D &lt;beta&gt;: https:/);
    for (const t of textObjects(answer)) {
      if (t.type === 'plain_text') expect(t.text).not.toMatch(/&(amp|lt|gt);/);
      else expect(t.text).not.toMatch(/&amp;(amp|lt|gt);/);
    }
  });

  it('an `&amp;` typed literally (Slack sends `&amp;amp;`) reaches the API as `&amp;`: decoded once, not twice', async () => {
    const answer = await ask(stack, 'invoice $5 Fish &amp; chips &lt;3');
    expect(createdInvoice()).toMatchObject({ productTitle: 'Fish &amp; chips &lt;3' });
    expect(headerOf(answer)).toBe('Invoice created: $5.00 — Fish &amp; chips &lt;3');
    expect(fieldOf(answer, 'Title')).toBe('Fish &amp;amp; chips &amp;lt;3');
  });

  // The command parser (tokenize in src/commands/words.ts) reads quotes around a phrase, straight or Slack's curly
  // ones, as grouping: they are dropped; quotes inside a quoted value are text.
  it('apostrophes and emoji (a flag, a ZWJ sequence, a skin tone) pass unchanged; quotes around a phrase (“launch”) group it and are dropped, quotes inside a quoted value are kept', async () => {
    const answer = await ask(stack, `invoice $5 Bob's “launch” 🚀 🇺🇦 👩‍💻 👍🏽 --data 'say "hi" & go'`);
    expect(createdInvoice()).toMatchObject({
      productTitle: `Bob's launch 🚀 🇺🇦 👩‍💻 👍🏽`,
      extraData: 'say "hi" & go',
    });
    expect(headerOf(answer)).toBe(`Invoice created: $5.00 — Bob's launch 🚀 🇺🇦 👩‍💻 👍🏽`);
    expect(fieldOf(answer, 'Extra data')).toBe('say "hi" &amp; go');
  });

  it('`--data "a & b"` reaches the API as `a & b`', async () => {
    const answer = await ask(stack, 'invoice $5 Order --data "a & b <c>"');
    expect(createdInvoice()).toMatchObject({ productTitle: 'Order', extraData: 'a & b <c>' });
    expect(fieldOf(answer, 'Extra data')).toBe('a &amp; b &lt;c&gt;');
  });

  it('a crypto invoice title too, and looking the invoice up later shows the same text once', async () => {
    const created = await ask(stack, 'invoice 0.05 ETH R&D <beta>');
    expect(createdInvoice()).toMatchObject({ productTitle: 'R&D <beta>' });
    expect(headerOf(created)).toBe('Invoice created: 0.05 ETH — R&D <beta>');
    const id = /Invoice id `([0-9a-f-]+)`/.exec(created.text)![1]!;
    const looked = await ask(stack, `invoice ${id}`);
    expect(headerOf(looked)).toBe('Invoice 0.05 ETH — R&D <beta>');
    expect(fieldOf(looked, 'Title')).toBe('R&amp;D &lt;beta&gt;');
  });
});

describe('Slack markup in command text', () => {
  it('a mention, a channel and a link are read as the person saw them, and shown as text, never live', async () => {
    // Sent raw: this is Slack's own markup (the command's "escape channels, users, and links" setting on).
    const answer = await ask(
      stack,
      'invoice $5 For <@U0RILEY|riley> in <#C0OPS|ops> see <http://example.com|example.com> &amp; <!here>',
      { raw: true },
    );
    expect(createdInvoice()).toMatchObject({ productTitle: 'For @riley in #ops see example.com & @here' });
    expect(fieldOf(answer, 'Title')).toBe('For @riley in #ops see example.com &amp; @here');
    expect(JSON.stringify(answer.reply.body)).not.toMatch(/<[@#!]|<http:\/\/example/);
  });
});

describe('what the person typed, quoted back in an error', () => {
  it('is escaped once: `/treasury withdrawal R&D` reads "R&D" in Slack', async () => {
    const answer = await ask(stack, 'withdrawal R&D<1>');
    expect(answer.text).toContain('"R&amp;D&lt;1&gt;" is not a withdrawal id');
    expect(answer.text).not.toContain('&amp;amp;');
    expect(stack.simulator.requestCount()).toBe(0);
  });
});
