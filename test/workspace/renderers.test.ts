// The page's renderers in Node (they import nothing browser-only): mrkdwn and Block Kit become HTML in which
// every piece of text is escaped and the only tags are the renderers' own. Hostile text comes from the bot's
// output and from what people typed, so this is the page's safety rule.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentTree, barColor, blockTree, fileTree, rawTree, toHtml } from '../../dev/workspace/page/blocks.js';
import { checkEntered, modalTree, REQUIRED_FIELD } from '../../dev/workspace/page/modal.js';
import { plainHtml, renderMrkdwn } from '../../dev/workspace/page/mrkdwn.js';

const directory = {
  users: new Map([['U1', { name: 'riley', title: 'Operations' }]]),
  channels: new Map([['C1', { name: 'treasury' }]]),
  me: 'U2',
};
const mrkdwn = (text: string) => renderMrkdwn(text, directory);
/** The Block Kit builders: src/blocks, and each feature's `blocks.ts` / `*-blocks.ts`. */
const SRC_DIR = new URL('../../src/', import.meta.url);
const block = (value: unknown) => toHtml(blockTree(value, { entryId: 'E1', directory }));

/** Tags the renderers write themselves (emoji are inline SVG). */
const OWN_TAGS = new Set([
  'a',
  'b',
  'i',
  's',
  'code',
  'pre',
  'blockquote',
  'br',
  'span',
  'div',
  'svg',
  'path',
  'circle',
  'rect',
  'text',
]);

/** Every tag in the HTML is one of ours, no attribute is an event handler and every link is http(s) or mailto. */
function expectOnlyOwnMarkup(html: string): void {
  const problems: string[] = [];
  for (const [, name] of html.matchAll(/<\/?([^\s>/]+)/g)) if (!OWN_TAGS.has(name ?? '')) problems.push(`tag ${name}`);
  for (const [tag] of html.matchAll(/<[^>]*>/g)) if (/\son[a-z]+\s*=/i.test(tag)) problems.push(`handler in ${tag}`);
  for (const [, href] of html.matchAll(/href="([^"]*)"/g))
    if (!/^(https?:\/\/|mailto:)/i.test(href ?? '')) problems.push(`link ${href}`);
  expect(problems).toEqual([]);
}

/** What a person reads: the tags gone, the HTML entities decoded once. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '',
    );
}

describe('renderMrkdwn', () => {
  it.each([
    ['<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>'],
    ['&lt;img src=x onerror=alert(1)&gt;', '<img src=x onerror=alert(1)>'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '<script>alert(1)</script>'],
    ['"quoted" & \'single\'', '"quoted" & \'single\''],
  ])('shows %s as text, never as a tag', (source, shown) => {
    const html = mrkdwn(source);
    expectOnlyOwnMarkup(html);
    expect(textOf(html)).toBe(shown);
  });

  it("decodes Slack's entities once: `&amp;lt;` is shown as `&lt;`", () => {
    expect(mrkdwn('&amp;lt;')).toBe('&amp;lt;');
    expect(textOf(mrkdwn('&amp;lt; &amp;amp; &lt;b&gt;'))).toBe('&lt; &amp; <b>');
  });

  it.each([
    ['*bold', '*bold'],
    ['_it', '_it'],
    ['~strike', '~strike'],
    ['`code', '`code'],
    ['```open block', '```open block'],
    ['*a* and *b', '<b>a</b> and *b'],
    ['a * b * c', 'a * b * c'],
  ])('leaves the unclosed marker in %s as text', (source, html) => {
    expect(mrkdwn(source)).toBe(html);
  });

  it('formats closed markers, code and quotes with its own tags', () => {
    expect(mrkdwn('*b* _i_ ~s~ `<c>`')).toBe('<b>b</b> <i>i</i> <s>s</s> <code>&lt;c&gt;</code>');
    expect(mrkdwn('```\n<pre> *x*\n```')).toBe('<pre class="mk-pre">&lt;pre&gt; *x*</pre>');
    expect(mrkdwn('> quoted\nafter')).toBe('<blockquote>quoted</blockquote>after');
  });

  it('shows a date token in local time, and its fallback when the date cannot be read', () => {
    const day = new Date(1_700_000_000_000);
    const expected = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    expect(textOf(mrkdwn('<!date^1700000000^{date_num}|fallback>'))).toBe(expected);
    expect(mrkdwn('<!date^not-a-number^{date}|fall &lt;img&gt;>')).toBe('fall &lt;img&gt;');
    expect(mrkdwn('<!date^1700000000^{date_num}^https://example.com/|x>')).toContain('<a href="https://example.com/"');
    const refused = mrkdwn('<!date^1700000000^{date_num}^javascript:alert(1)|x>');
    expect(refused).not.toContain('<a ');
    expect(textOf(refused)).toBe(expected);
  });

  it('draws mentions from the directory, escaped', () => {
    expect(mrkdwn('<@U1>')).toBe('<span class="mention mention-user" title="riley — Operations">@riley</span>');
    expect(mrkdwn('<@U2|me>')).toContain('mention-me');
    expect(mrkdwn('<@U9|<b>x</b>>')).toBe('&lt;@U9|&lt;b&gt;x&lt;/b&gt;&gt;');
    expect(mrkdwn('<#C1|x>')).toBe('<span class="mention mention-channel">#x</span>');
    expect(mrkdwn('<#C1>')).toBe('<span class="mention mention-channel">#treasury</span>');
    expect(mrkdwn('<!here>')).toBe('<span class="mention mention-broadcast">@here</span>');
  });

  it('draws a user group by its handle from the directory, else by its label or id', () => {
    const withGroups = {
      ...directory,
      groups: new Map([['S0LEADS', { handle: 'treasury-leads', name: 'Treasury <leads>' }]]),
    };
    expect(renderMrkdwn('ask <!subteam^S0LEADS>', withGroups)).toBe(
      'ask <span class="mention mention-user" title="Treasury &lt;leads&gt;">@treasury-leads</span>',
    );
    expect(renderMrkdwn('<!subteam^S0LEADS|@old-name>', withGroups)).toContain('>@treasury-leads</span>');
    expect(mrkdwn('<!subteam^S0LEADS|@treasury-leads>')).toBe(
      '<span class="mention mention-user">@treasury-leads</span>',
    );
    expect(mrkdwn('<!subteam^S0OTHER>')).toBe('<span class="mention mention-user">@S0OTHER</span>');
  });

  it('highlights a user group the viewer is in, as a mention of them', () => {
    const leads = { handle: 'treasury-leads', members: ['U2'] };
    expect(renderMrkdwn('<!subteam^S0LEADS>', { ...directory, groups: new Map([['S0LEADS', leads]]) })).toBe(
      '<span class="mention mention-me">@treasury-leads</span>',
    );
    const others = { handle: 'treasury-leads', members: ['U1'] };
    expect(renderMrkdwn('<!subteam^S0LEADS>', { ...directory, groups: new Map([['S0LEADS', others]]) })).toContain(
      'mention-user',
    );
  });

  it('links only http, https and mailto; `javascript:` never becomes a link', () => {
    expect(mrkdwn('<http://a|b>')).toBe('<a href="http://a" target="_blank" rel="noopener noreferrer">b</a>');
    expect(mrkdwn('<mailto:a@b.example|mail>')).toContain('<a href="mailto:a@b.example"');
    expect(mrkdwn('see https://example.com/x.')).toBe(
      'see <a href="https://example.com/x" target="_blank" rel="noopener noreferrer">https://example.com/x</a>.',
    );
    for (const source of [
      '<javascript:alert(1)|click>',
      '<JavaScript:alert(1)>',
      'javascript:alert(1)',
      '<data:text/html,<b>x</b>|x>',
      '<vbscript:x|y>',
    ]) {
      const html = mrkdwn(source);
      expect(html, source).not.toContain('<a ');
      expectOnlyOwnMarkup(html);
    }
    // A quote in a URL cannot end the attribute.
    const quoted = mrkdwn('<https://a.example/"onmouseover="alert(1)|y>');
    expect(quoted).toContain('href="https://a.example/&quot;onmouseover=&quot;alert(1)"');
    expectOnlyOwnMarkup(quoted);
  });

  it('draws every emoji the bot’s messages use (src/blocks), as Slack does', () => {
    const used = new Set<string>();
    const files = readdirSync(SRC_DIR, { recursive: true, encoding: 'utf8' }).filter(
      (name) => name.startsWith('blocks/') || name.endsWith('blocks.ts'),
    );
    expect(files.length).toBeGreaterThan(15);
    for (const file of files)
      for (const [, name] of readFileSync(new URL(file, SRC_DIR), 'utf8').matchAll(/:([a-z0-9_]+):(?![a-z0-9_])/g))
        used.add(name!);
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !mrkdwn(`:${name}:`).includes('class="emoji"'))).toEqual([]);
  });

  it('leaves unknown emoji (and object keys) as text', () => {
    expect(mrkdwn(':warning:')).toContain('<span class="emoji" title=":warning:">');
    expect(mrkdwn(':constructor: :__proto__: :nope:')).toBe(':constructor: :__proto__: :nope:');
  });

  it('does not let private-use characters forge its placeholders', () => {
    const html = mrkdwn('<http://a|b> \uE0000\uE001');
    expect(html).toBe('<a href="http://a" target="_blank" rel="noopener noreferrer">b</a> \uFFFD0\uFFFD');
  });

  it('renders very long and pathological text quickly', () => {
    const inputs = [
      'x'.repeat(200_000),
      `${'*'.repeat(50_000)}a`,
      '*a '.repeat(30_000),
      '_'.repeat(50_000),
      '`'.repeat(50_000),
      '<'.repeat(50_000),
      '<http://a|'.repeat(10_000),
      `https://example.com/${'('.repeat(20_000)}`,
      '&amp;'.repeat(40_000),
      '>'.repeat(20_000) + '\n'.repeat(20_000),
    ];
    const started = performance.now();
    const outputs = inputs.map(mrkdwn);
    // About 0.4 s on a laptop; the bound only catches a regular expression that backtracks without end.
    expect(performance.now() - started).toBeLessThan(5_000);
    for (const html of outputs) expectOnlyOwnMarkup(html);
    expect(textOf(mrkdwn('<'.repeat(1_000)))).toBe('<'.repeat(1_000));
  });

  it('a mention whose id is not a Slack id is text, not a chip carrying the rest as an attribute', () => {
    for (const input of ['<@U1img onerror=alert(1)>', '<#C1 onclick=x>']) {
      const html = mrkdwn(input);
      expectOnlyOwnMarkup(html);
      expect(html).not.toContain('class="mention');
      expect(textOf(html)).toBe(input);
    }
  });

  it('never writes a tag of its own choosing from any text (property)', () => {
    const hostile = fc.constantFrom(
      '<',
      '>',
      '&',
      'amp;',
      'lt;',
      '"',
      "'",
      '*',
      '_',
      '~',
      '`',
      '```',
      '>',
      '\n',
      '|',
      '@U1',
      '#C1',
      '!date^1700000000^{date}',
      'http://a',
      'javascript:',
      'mailto:x',
      'img onerror=alert(1)',
      ' ',
      'x',
      ':warning:',
      '\uE000',
      '\uE001',
    );
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 40 }), (parts) => {
        expectOnlyOwnMarkup(mrkdwn(parts.join('')));
      }),
      { numRuns: 500 },
    );
  });
});

describe('plainHtml', () => {
  it('shows plain_text as written: no entities, no formatting, no tokens', () => {
    expect(plainHtml('*bold* <@U1> &amp; <img src=x onerror=alert(1)>\nnext', false)).toBe(
      '*bold* &lt;@U1&gt; &amp;amp; &lt;img src=x onerror=alert(1)&gt;<br>next',
    );
    expect(plainHtml(':warning:')).toContain('class="emoji"');
    expect(plainHtml(':warning:', false)).toBe(':warning:');
  });
});

describe('Block Kit', () => {
  it('shows an unknown block raw, with its JSON escaped', () => {
    const html = block({ type: 'video', title: '<img src=x onerror=alert(1)>' });
    expect(html).toContain('data-testid="raw-block"');
    expect(html).toContain('Block not shown in this workspace: <code>video</code>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expectOnlyOwnMarkup(html.replace(/<\/?(pre|code)>/g, ''));
  });

  it('escapes a hostile block type and says why a block could not be read', () => {
    expect(block({ type: '<img src=x onerror=alert(1)>' })).toContain(
      '<code>&lt;img src=x onerror=alert(1)&gt;</code>',
    );
    expect(block({ type: 'section' })).toContain('It could not be read: section without text or fields');
    expect(block({ type: 'constructor' })).toContain('data-testid="raw-block"');
    expect(toHtml(rawTree('just a string'))).toContain('<code>string</code>');
  });

  it('never interprets plain_text, and renders mrkdwn safely', () => {
    const plain = block({
      type: 'section',
      text: { type: 'plain_text', text: '*b* <@U1> &amp; <img src=x>', emoji: false },
    });
    expect(plain).toContain('<div class="plain bk-section-text">*b* &lt;@U1&gt; &amp;amp; &lt;img src=x&gt;</div>');
    const header = block({ type: 'header', text: { type: 'plain_text', text: '<b>_x_</b>' } });
    expect(header).toBe('<div class="bk-header bk" data-block-type="header">&lt;b&gt;_x_&lt;/b&gt;</div>');
    const rich = block({ type: 'section', fields: [{ type: 'mrkdwn', text: '*Amount* &lt;img&gt;' }] });
    expect(rich).toContain('<div class="mk bk-field"><b>Amount</b> &lt;img&gt;</div>');
  });

  it('draws buttons with their action, and refuses links and images that are not http(s)', () => {
    const tree = blockTree(
      {
        type: 'actions',
        block_id: 'quote',
        elements: [
          {
            type: 'button',
            action_id: 'approve',
            value: 'q1',
            style: 'primary',
            text: { type: 'plain_text', text: '<b>Approve</b>' },
          },
          { type: 'button', action_id: 'open', url: 'javascript:alert(1)', text: { type: 'plain_text', text: 'Open' } },
        ],
      },
      { entryId: 'E1', directory },
    );
    const [approve, open] = tree.children as Array<
      Exclude<(typeof tree.children)[number], string | null | { html: string }>
    >;
    expect(approve?.action).toMatchObject({
      entryId: 'E1',
      url: null,
      label: '<b>Approve</b>',
      element: { value: 'q1' },
    });
    expect(toHtml(approve ?? null)).toContain(
      'aria-label="&lt;b&gt;Approve&lt;/b&gt;">&lt;b&gt;Approve&lt;/b&gt;</button>',
    );
    expect(toHtml(open ?? null)).toContain('It could not be read: button url is not http(s)');
    const image = block({ type: 'image', image_url: 'javascript:alert(1)', alt_text: 'x' });
    expect(image).toContain('It could not be read: image without an http(s) image_url');
    const good = block({ type: 'image', image_url: 'https://example.com/a.png', alt_text: '"><script>' });
    expect(good).toContain('<img class="bk-image-img" src="https://example.com/a.png" alt="&quot;&gt;&lt;script&gt;"');
  });
});

describe('static menus', () => {
  const snooze = {
    type: 'static_select',
    action_id: 'alert_snooze',
    placeholder: { type: 'plain_text', text: 'Snooze' },
    options: [
      { text: { type: 'plain_text', text: '1 h' }, value: '1h' },
      { text: { type: 'plain_text', text: '<b>4 h</b>' }, value: '4"h' },
    ],
  };

  it('draws a static_select in an actions block as a menu whose placeholder is chosen until someone picks', () => {
    const tree = blockTree({ type: 'actions', block_id: 'alert_actions', elements: [snooze] }, { entryId: 'E1' });
    const [menu] = tree.children as Array<Exclude<(typeof tree.children)[number], string | null | { html: string }>>;
    expect(menu?.select).toMatchObject({ entryId: 'E1', element: { action_id: 'alert_snooze' } });
    expect(toHtml(menu ?? null)).toBe(
      '<select class="bk-select" aria-label="Snooze" data-testid="static-select" data-action-id="alert_snooze" ' +
        'data-action-key="E1\u0000alert_actions\u0000alert_snooze">' +
        '<option value="" disabled="" selected="">Snooze</option>' +
        '<option value="1h">1 h</option>' +
        '<option value="4&quot;h">&lt;b&gt;4 h&lt;/b&gt;</option></select>',
    );
  });

  it('starts on the initial option, keeps option groups, and shows a menu it cannot read raw', () => {
    const grouped = block({
      type: 'actions',
      elements: [
        {
          type: 'static_select',
          action_id: 'when',
          initial_option: { text: { type: 'plain_text', text: 'Tomorrow' }, value: 'tomorrow' },
          option_groups: [
            {
              label: { type: 'plain_text', text: 'Later' },
              options: [{ text: { type: 'plain_text', text: 'Tomorrow' }, value: 'tomorrow' }],
            },
          ],
        },
      ],
    });
    expect(grouped).toContain('<option value="" disabled="">Select an item</option>');
    expect(grouped).toContain(
      '<optgroup label="Later"><option value="tomorrow" selected="">Tomorrow</option></optgroup>',
    );
    const broken = block({
      type: 'actions',
      elements: [
        { type: 'static_select', action_id: 'x', options: [{ text: { type: 'mrkdwn', text: '*no*' }, value: 'x' }] },
      ],
    });
    expect(broken).toContain('It could not be read: option 1 text is not plain_text');
  });
});

describe('attachments (legacy secondary, as Slack draws them below the blocks)', () => {
  type Node = Exclude<ReturnType<typeof attachmentTree>['children'][number], string | null | { html: string }>;
  /** Every node of a tree, depth first. */
  const nodes = (tree: Node): Node[] => [
    tree,
    ...tree.children.flatMap((child) =>
      child === null || typeof child === 'string' || !('tag' in child) ? [] : nodes(child),
    ),
  ];
  const alert = {
    color: '#ECB22E',
    fallback: 'Acknowledged: Withdrawal failed',
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: 'Acknowledged by <@U1>' } },
      {
        type: 'actions',
        block_id: 'alert:2:w-1',
        elements: [
          {
            type: 'button',
            action_id: 'alert_resolve',
            value: 'resolve',
            text: { type: 'plain_text', text: 'Resolve' },
          },
          {
            type: 'static_select',
            action_id: 'alert_snooze',
            placeholder: { type: 'plain_text', text: 'Snooze' },
            options: [{ text: { type: 'plain_text', text: '1 h' }, value: '1h' }],
          },
        ],
      },
    ],
  };

  it('draws a colour bar beside the blocks, drawn as a message’s are, and says its colour', () => {
    const tree = attachmentTree(alert, 1, { entryId: 'E1', directory });
    const html = toHtml(tree);
    expect(html).toContain('data-testid="attachment" data-color="#ECB22E" data-attachment-id="1"');
    expect(html).toContain('<div class="att-bar" style="background:#ECB22E" aria-hidden="true"></div>');
    expect(html).toContain('@riley');
    expectOnlyOwnMarkup(html.replace(/<\/?(select|option|button|hr)\b[^>]*>/g, ''));
  });

  it('buttons and menus inside say which attachment they are in (Slack’s attachment_id), with keys of their own', () => {
    const all = nodes(attachmentTree(alert, 2, { entryId: 'E1' }));
    const button = all.find((node) => node.action)?.action;
    const menu = all.find((node) => node.select)?.select;
    expect(button).toMatchObject({ entryId: 'E1', attachmentId: 2, element: { action_id: 'alert_resolve' } });
    expect(menu).toMatchObject({ entryId: 'E1', attachmentId: 2, element: { action_id: 'alert_snooze' } });
    expect(button?.key).not.toBe(
      nodes(blockTree(alert.blocks[1], { entryId: 'E1' })).find((node) => node.action)?.action?.key,
    );
  });

  it('named colours as Slack draws them, hex codes with or without #, and grey for anything else', () => {
    expect([barColor('good'), barColor('warning'), barColor('danger')]).toEqual(['#2EB886', '#DAA038', '#A30200']);
    expect([barColor('#439FE0'), barColor('439fe0'), barColor('#fff')]).toEqual(['#439FE0', '#439fe0', '#fff']);
    for (const hostile of ['red;background:url(x)', 'expression(alert(1))', undefined, 7])
      expect(barColor(hostile)).toBe('#DDDDDD');
  });

  it('draws the legacy fields of an attachment without blocks, escaped; mrkdwn only where mrkdwn_in says', () => {
    const html = toHtml(
      attachmentTree(
        {
          color: 'danger',
          pretext: '*not bold*',
          title: '<b>Title</b>',
          title_link: 'javascript:alert(1)',
          text: '*bold*',
          mrkdwn_in: ['text'],
          fields: [{ title: 'Priority', value: '<i>High</i>', short: true }],
          footer: 'footer',
        },
        1,
        { entryId: 'E1', directory },
      ),
    );
    expectOnlyOwnMarkup(html);
    expect(html).toContain('*not bold*');
    expect(html).toContain('<b>bold</b>');
    expect(textOf(html)).toContain('<b>Title</b>');
    expect(textOf(html)).toContain('<i>High</i>');
    expect(html).not.toContain('javascript:');
    expect(toHtml(attachmentTree({ fallback: 'Only a fallback' }, 1, { entryId: 'E1' }))).toContain('Only a fallback');
    expect(toHtml(attachmentTree('not an object', 1, { entryId: 'E1' }))).toContain('an attachment is not an object');
  });
});

describe('modals', () => {
  const plainText = (text: string) => ({ type: 'plain_text', text });
  const resolveView = {
    type: 'modal',
    callback_id: 'alert_resolve',
    title: plainText('Resolve <alert>'),
    submit: plainText('Resolve'),
    close: plainText('Cancel'),
    blocks: [
      { type: 'section', block_id: 'what', text: { type: 'mrkdwn', text: '*Withdrawal failed* &lt;img&gt;' } },
      { type: 'context', block_id: 'ctx', elements: [{ type: 'mrkdwn', text: 'Opened by <@U1>' }] },
      {
        type: 'input',
        block_id: 'note',
        label: plainText('What was done'),
        hint: plainText('Shown on the alert'),
        element: {
          type: 'plain_text_input',
          action_id: 'note_input',
          multiline: true,
          max_length: 3000,
          placeholder: plainText('Refunded by hand'),
        },
      },
      {
        type: 'input',
        block_id: 'ticket',
        optional: true,
        label: plainText('Ticket'),
        element: { type: 'plain_text_input', action_id: 'ticket_input', initial_value: 'OPS-1', min_length: 3 },
      },
    ],
  };
  const modal = (options: Parameters<typeof modalTree>[1] = {}) =>
    toHtml(modalTree({ id: 'V1', hash: 'h1', view: resolveView }, { directory, ...options }));

  it('draws the title, the blocks, each input with its label, hint, placeholder and "(optional)", Close and Submit', () => {
    const html = modal();
    expect(html).toContain('data-testid="modal" data-view-id="V1" data-callback-id="alert_resolve"');
    expect(html).toContain(
      '<h2 class="modal-title" id="modal-title-V1" data-testid="modal-title">Resolve &lt;alert&gt;</h2>',
    );
    expect(html).toContain('<b>Withdrawal failed</b> &lt;img&gt;');
    expect(html).toContain('@riley');
    expect(html).toMatch(
      /<label class="modal-label" for="modal-V1-note">What was done<\/label><textarea class="modal-control" rows="4" id="modal-V1-note" name="note" data-testid="modal-input-note" data-block-id="note" data-action-id="note_input" required="" maxlength="3000" placeholder="Refunded by hand"><\/textarea><div class="modal-hint">Shown on the alert<\/div>/,
    );
    expect(html).toContain('<span class="modal-optional"> (optional)</span>');
    expect(html).toMatch(
      /<input class="modal-control" type="text" value="OPS-1" [^>]*data-testid="modal-input-ticket"/,
    );
    expect(html).toContain('data-testid="modal-close" data-modal-close="">Cancel</button>');
    expect(html).toContain('data-testid="modal-submit">Resolve</button>');
    expect(html).not.toContain('modal-error');
  });

  it('shows an error under the input it names, keeps what was typed, and says what went wrong with the form', () => {
    const html = modal({
      errors: { note: 'Say what was done <b>' },
      entered: { note: { note_input: 'typed <i>' }, ticket: { ticket_input: '' } },
      problem: 'The bot did not take it',
    });
    expect(html).toContain(
      '<div class="modal-error" id="modal-V1-note-error" data-testid="modal-error-note" role="alert">Say what was done &lt;b&gt;</div>',
    );
    expect(html).toContain('aria-invalid="true" aria-describedby="modal-V1-note-error"');
    expect(html).toContain('>typed &lt;i&gt;</textarea>');
    expect(html).toMatch(/<input class="modal-control" type="text" value="" /);
    expect(html).toContain('data-testid="modal-problem" role="alert">The bot did not take it</div>');
  });

  it('has no Submit when the view has none, and shows an input it cannot fill in raw', () => {
    const html = toHtml(
      modalTree({
        id: 'V2',
        view: {
          type: 'modal',
          title: plainText('Info'),
          blocks: [
            {
              type: 'input',
              block_id: 'when',
              label: plainText('When'),
              element: { type: 'datepicker', action_id: 'd' },
            },
          ],
        },
      }),
    );
    expect(html).not.toContain('modal-submit');
    expect(html).toContain('data-testid="modal-close" data-modal-close="">Cancel</button>');
    expect(html).toContain(
      'It could not be read: this workspace fills in plain-text and number inputs, static, user and conversation menus, not datepicker',
    );
  });

  it('refuses, as Slack’s client does, a required input left empty and a text shorter than its min_length', () => {
    expect(checkEntered(resolveView, { note: { note_input: '' }, ticket: { ticket_input: '' } })).toEqual({
      note: REQUIRED_FIELD,
    });
    expect(checkEntered(resolveView, { note: { note_input: 'done' }, ticket: { ticket_input: 'AB' } })).toEqual({
      ticket: 'Please enter at least 3 characters.',
    });
    expect(checkEntered(resolveView, { note: { note_input: 'done' } })).toEqual({});
  });
});

describe('user menus in modals (users_select)', () => {
  const people = {
    users: new Map([
      ['U0SAM', { name: 'Sam Lee' }],
      ['U0AVERY', { name: 'Avery <Patel>' }],
    ]),
    channels: new Map(),
    me: 'U0AVERY',
  };
  const pickerView = {
    type: 'modal',
    callback_id: 'second_factor_reset_modal',
    title: { type: 'plain_text', text: 'Reset a second factor' },
    submit: { type: 'plain_text', text: 'Reset' },
    blocks: [
      {
        type: 'input',
        block_id: 'reset_person',
        label: { type: 'plain_text', text: 'Whose second factor' },
        element: { type: 'users_select', action_id: 'person', placeholder: { type: 'plain_text', text: 'Choose' } },
      },
    ],
  };
  const drawn = (options: Parameters<typeof modalTree>[1] = {}) =>
    toHtml(modalTree({ id: 'V3', view: pickerView }, { directory: people, ...options }));

  it("draws a menu of the workspace's people by name (escaped), the member id as each value, the placeholder chosen", () => {
    const html = drawn();
    expect(html).toMatch(
      /<select class="bk-select modal-control" aria-label="Choose" data-users-select="" id="modal-V3-reset_person" name="reset_person" data-testid="modal-input-reset_person" data-block-id="reset_person" data-action-id="person" required="">/,
    );
    expect(html).toContain('<option value="" disabled="" selected="">Choose</option>');
    // Sorted by name, as a person looks for them.
    expect(html).toContain(
      '<option value="U0AVERY">Avery &lt;Patel&gt;</option><option value="U0SAM">Sam Lee</option></select>',
    );
  });

  it('keeps the person chosen across redraws (an error shown under it), and starts on initial_user when given', () => {
    const html = drawn({
      entered: { reset_person: { person: 'U0SAM' } },
      errors: { reset_person: 'That person has no second factor: nothing to reset.' },
    });
    expect(html).toContain('<option value="U0SAM" selected="">Sam Lee</option>');
    expect(html).toContain('data-testid="modal-error-reset_person" role="alert">That person has no second factor');
    const initial = toHtml(
      modalTree(
        {
          id: 'V4',
          view: {
            ...pickerView,
            blocks: [
              { ...pickerView.blocks[0], element: { ...pickerView.blocks[0]!.element, initial_user: 'U0AVERY' } },
            ],
          },
        },
        { directory: people },
      ),
    );
    expect(initial).toContain('<option value="U0AVERY" selected="">');
  });

  it('is required like any input: nobody chosen is refused before anything is sent', () => {
    expect(checkEntered(pickerView, { reset_person: { person: '' } })).toEqual({ reset_person: REQUIRED_FIELD });
    expect(checkEntered(pickerView, { reset_person: { person: 'U0SAM' } })).toEqual({});
  });
});

describe('files shared in a message (files.completeUploadExternal)', () => {
  const chart = {
    id: 'F0CHART0001',
    name: 'balances.png',
    title: 'Balances, last 30 days',
    mimetype: 'image/png',
    filetype: 'png',
    pretty_type: 'PNG',
    alt_txt: 'Total balance over 30 days',
    original_w: 1200,
    original_h: 680,
    url_private: 'http://127.0.0.1:4000/files-pri/T1-F0CHART0001/balances.png',
  };

  it('an image is previewed under its title, and a click opens the full image in a new tab', () => {
    const html = toHtml(fileTree(chart));
    expect(html).toContain('<figcaption class="file-title">Balances, last 30 days</figcaption>');
    expect(html).toContain(
      `<a href="${chart.url_private}" target="_blank" rel="noopener noreferrer" class="file-open" title="Open Balances, last 30 days" data-testid="file-open">`,
    );
    expect(html).toContain(
      `<img class="file-img" src="${chart.url_private}" alt="Total balance over 30 days" width="1200" height="680"`,
    );
  });

  it('any other file is a card with its name and type; hostile names are text, and a url that is not http(s) is no link', () => {
    const html = toHtml(
      fileTree({ ...chart, mimetype: 'text/csv', pretty_type: 'CSV', title: '<img src=x onerror=alert(1)>' }),
    );
    expect(html).toContain('data-testid="file"');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect(html).toContain('<div class="file-kind">CSV</div>');
    const noLink = toHtml(fileTree({ ...chart, url_private: 'javascript:alert(1)' }));
    expect(noLink).not.toContain('javascript:');
    expect(noLink).not.toContain('<a ');
    expect(toHtml(fileTree('not a file'))).toContain('It could not be read: a file is not an object');
  });

  it('a file that is not an image offers its download (the audit CSV), with its size', () => {
    const csv = {
      id: 'F0AUDIT0001',
      name: 'treasury-audit-2026-10-26--2026-11-25.csv',
      title: 'Audit trail, last 30 days',
      mimetype: 'text/csv',
      filetype: 'csv',
      pretty_type: 'CSV',
      size: 14_230,
      url_private: 'http://127.0.0.1:4000/files-pri/T1-F0AUDIT0001/treasury-audit.csv',
      url_private_download: 'http://127.0.0.1:4000/files-pri/T1-F0AUDIT0001/treasury-audit.csv?download=1',
    };
    const html = toHtml(fileTree(csv));
    expect(html).toContain('<div class="file-kind">CSV · 14 kB</div>');
    expect(html).toContain(
      `<a class="file-download" href="${csv.url_private_download}" download="${csv.name}" rel="noopener noreferrer" title="Download ${csv.name}" data-testid="file-download">Download</a>`,
    );
    const hostile = toHtml(fileTree({ ...csv, url_private_download: 'javascript:alert(1)', url_private: 'data:x' }));
    expect(hostile).not.toContain('javascript:');
    expect(hostile).not.toContain('file-download');
  });
});
