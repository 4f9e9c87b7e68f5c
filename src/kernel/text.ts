/**
 * Text helpers every layer may use: the one read of what Slack sends (readTypedText, at the edge), the one mrkdwn
 * escape (escapeText, on the way out) and the one way to cut text. They live at the bottom (domain) because error
 * reasons built below the views (amounts, assets) already quote what people typed.
 *
 * Between the two, text is literal: what the person typed, what the payment API stores. plain_text fields
 * (headers, buttons, dialog titles) take it as it is; only mrkdwn is escaped, once.
 */

/** Escapes the three characters Slack treats as control characters in mrkdwn (`&`, `<`, `>`). */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/**
 * Undoes Slack's escaping: `&amp;`, `&lt;` and `&gt;` (only these three; quotes are never escaped) become `&`,
 * `<` and `>`, in one pass, so `&amp;lt;` (a person who typed `&lt;`) becomes `&lt;`, never `<`.
 */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity]!);
}

// Slack's own `<…>` markup in what a person typed: a user, a channel, a special mention, or a link with a scheme.
// Angle brackets the person typed arrive as `&lt;`/`&gt;`, so a raw `<` can only open markup.
const SLACK_MARKUP_OR_ENTITY = /<([@#!][^<>|]*|[a-z][a-z0-9+.-]*:[^<>|]*)(?:\|([^<>]*))?>|&(?:amp|lt|gt);/gi;

/**
 * What a person typed, from text as Slack sends it to an app (slash command `text`, message text): the three
 * entities decoded once, and Slack's markup turned back into what the person saw in the message box, since
 * the text goes on to places that know no Slack markup (an invoice title, the payment page):
 * `<@U1|riley>` → `@riley`, `<@U1>` → `@U1`, `<#C1|treasury>` → `#treasury`, `<!here>` → `@here`,
 * `<!subteam^S1|@ops>` → `@ops`, `<http://a.io|a.io>` → `a.io`, `<https://a.io>` → `https://a.io`, and a link
 * whose label is not its address → `label (https://…)`, so no address is lost. Anything else is left as it is.
 *
 * Call it once, at the edge (src/listeners/edge.ts). Not for modal input values (`view_submission` state
 * values) or button values: Slack sends those as they are, unescaped, and decoding them would corrupt a typed
 * `&amp;`.
 */
export function readTypedText(text: string): string {
  return text.replace(SLACK_MARKUP_OR_ENTITY, (match, target: string | undefined, label: string | undefined) => {
    if (target === undefined) return ENTITIES[match]!;
    return markupAsTyped(decodeSlackEntities(target), label === undefined ? undefined : decodeSlackEntities(label));
  });
}

function markupAsTyped(target: string, label: string | undefined): string {
  const kind = target[0];
  const id = target.slice(1);
  if (kind === '@' || kind === '#') return label ? `${kind}${label.replace(/^[@#]/, '')}` : target;
  if (kind === '!') {
    if (label) return label;
    // `<!subteam^S1>`, `<!date^…>` without a fallback: the id is all there is.
    return `@${id.replace(/^subteam\^/, '').replace(/\^.*$/, '')}`;
  }
  if (!label) return target;
  // Both without a trailing slash: Slack sends `x.io/` typed as `<http://x.io/|x.io/>`, and `x.io` as `<http://x.io|x.io>`.
  const bare = target.replace(/^(?:[a-z][a-z0-9+.-]*:)(?:\/\/)?/i, '').replace(/\/$/, '');
  return label.replace(/\/$/, '') === bare || label === target ? label : `${label} (${target})`;
}

/** Cuts text to `max` characters, ending with "…" when it was cut; never in the middle of a surrogate pair (an emoji). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // A lone half of a pair would reach Slack as U+FFFD.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** What a person typed, quoted for an error reason: whitespace and control characters collapsed, at most 40 characters, escaped. */
export function quoteInput(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: collapsing control characters is this regex's purpose.
  const flat = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return `"${escapeText(clipText(flat, 40))}"`;
}
