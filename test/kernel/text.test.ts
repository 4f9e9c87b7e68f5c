// Reading text as Slack sends it, and writing it back as mrkdwn: each exactly once.
import { describe, expect, it } from 'vitest';
import { clipText, decodeSlackEntities, escapeText, readTypedText } from '../../src/kernel/text.js';

describe('decodeSlackEntities', () => {
  it.each([
    ['R&amp;D &lt;beta&gt;', 'R&D <beta>'],
    // A person who typed `&amp;` or `&lt;` literally: Slack escapes their `&`, one decode gives it back.
    ['&amp;amp;', '&amp;'],
    ['&amp;lt;', '&lt;'],
    ['&amp;gt;', '&gt;'],
    ['&amp;amp;amp;', '&amp;amp;'],
    // Only the three entities Slack writes: anything else stays as it is.
    ['&quot;a&quot; &#39;b&#39; &nbsp; &AMP; &lt &amp', '&quot;a&quot; &#39;b&#39; &nbsp; &AMP; &lt &amp'],
    [`"quoted" 'single' “curly”`, `"quoted" 'single' “curly”`],
    ['🚀 🇺🇦 👩‍💻 café', '🚀 🇺🇦 👩‍💻 café'],
    ['', ''],
  ])('%j → %j', (sent, typed) => {
    expect(decodeSlackEntities(sent)).toBe(typed);
  });

  it('undoes escapeText exactly, whatever the text', () => {
    for (const typed of ['R&D <beta>', '&amp;', '&lt;&gt;', '<<&&>>', 'a & b', '<@U123>', '&&amp;;']) {
      expect(decodeSlackEntities(escapeText(typed))).toBe(typed);
    }
  });
});

describe('readTypedText', () => {
  it.each([
    ['R&amp;D &lt;beta&gt;', 'R&D <beta>'],
    ['&amp;amp;', '&amp;'],
    ['&amp;lt;beta&amp;gt;', '&lt;beta&gt;'],
    // Slack's markup, as it arrives when the command escapes mentions, channels and links: what the person saw.
    ['for <@U0RILEY|riley>', 'for @riley'],
    ['for <@U0RILEY>', 'for @U0RILEY'],
    ['in <#C0TREASURY|treasury>', 'in #treasury'],
    ['in <#C0TREASURY>', 'in #C0TREASURY'],
    ['<!here> <!channel> <!everyone>', '@here @channel @everyone'],
    ['<!subteam^S0OPS|@ops>', '@ops'],
    ['<!subteam^S0OPS>', '@S0OPS'],
    ['see <http://example.com|example.com>', 'see example.com'],
    // A link typed with a trailing slash keeps it, once.
    ['see <http://x.io/|x.io/>', 'see x.io/'],
    ['see <https://example.com/docs/|example.com/docs/>', 'see example.com/docs/'],
    ['see <https://example.com/a?x=1&amp;y=2>', 'see https://example.com/a?x=1&y=2'],
    ['<mailto:ops@example.com|ops@example.com>', 'ops@example.com'],
    ['<https://example.com/t|the terms &amp; conditions>', 'the terms & conditions (https://example.com/t)'],
    // Markup inside entities is text the person typed, not markup.
    ['&lt;@U0RILEY&gt; &lt;!channel&gt;', '<@U0RILEY> <!channel>'],
  ])('%j → %j', (sent, typed) => {
    expect(readTypedText(sent)).toBe(typed);
  });

  it('leaves angle brackets Slack would never send as markup (no scheme, no @ # !) as they are', () => {
    expect(readTypedText('R&D <beta>')).toBe('R&D <beta>');
  });

  it('passes quotes and emoji unchanged', () => {
    const typed = `"a" 'b' “c” ‘d’ 🚀 🇺🇦 👩‍💻 👍🏽`;
    expect(readTypedText(typed)).toBe(typed);
  });
});

describe('clipText', () => {
  it('never cuts an emoji in half', () => {
    const clipped = clipText(`abc🚀def`, 5);
    expect(clipped).toBe('abc…');
    expect(clipText('abcdef', 5)).toBe('abcd…');
  });
});
