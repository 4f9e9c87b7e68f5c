/**
 * Text helpers every layer may use: the one mrkdwn escape and the one way to cut text. They live at the bottom
 * (domain) because error reasons built below the views (amounts, assets) already quote what people typed.
 */

/** Escapes the three characters Slack treats as control characters in mrkdwn (`&`, `<`, `>`). */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts text to `max` characters, ending with "…" when it was cut. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** What a person typed, quoted for an error reason: whitespace and control characters collapsed, at most 40 characters, escaped. */
export function quoteInput(text: string): string {
  const flat = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return `"${escapeText(clipText(flat, 40))}"`;
}
