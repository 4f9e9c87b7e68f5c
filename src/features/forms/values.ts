/**
 * What a person entered in a form, read from Slack's `view.state.values`, and the exact checks the forms share:
 * an amount typed in an asset's units becomes base units with the same parser as the typed commands (so the
 * same refusals, in the same words), never a float; a USD amount becomes cents.
 */
import { parseTokenAmount, parseUsdAmount } from '../../kernel/amounts.js';
import { AmountError } from '../../kernel/errors.js';
import { decodeSlackEntities } from '../../kernel/text.js';

/** Slack's `view.state.values`: block_id → action_id → the element's state. */
export type FormValues = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text typed in the input `id` (block_id and action_id alike), trimmed; '' when empty or absent. */
export function typedText(values: FormValues, id: string): string {
  const state = values[id]?.[id];
  return isRecord(state) && typeof state.value === 'string' ? state.value.trim() : '';
}

/** The value of the option chosen in the menu `id`; undefined when nothing is chosen. */
export function chosenValue(values: FormValues, id: string): string | undefined {
  const state = values[id]?.[id];
  const option = isRecord(state) ? state.selected_option : undefined;
  return isRecord(option) && typeof option.value === 'string' ? option.value : undefined;
}

/** An amount as a form reads it: nothing typed yet, base units (or cents), or why it is refused, in plain words. */
export type AmountReading = { empty: true } | { units: bigint } | { refused: string };

/**
 * The amount typed for an asset with `decimals` (and `symbol`, which may follow the number): exact base units from
 * the typed decimal, by the typed command's own parser (too many decimals, zero, negative, not a number, exponent
 * notation are refused with its words). `allowZero` for thresholds ("below 0" is not a level).
 */
export function readTokenAmount(
  text: string,
  asset: { decimals: number; symbol: string },
  options: { allowZero?: boolean } = {},
): AmountReading {
  if (text.trim() === '') return { empty: true };
  try {
    return {
      units: parseTokenAmount(text, asset.decimals, {
        symbol: asset.symbol,
        ...(options.allowZero ? { allowZero: true } : {}),
      }),
    };
  } catch (error) {
    if (error instanceof AmountError) return { refused: error.reason };
    throw error;
  }
}

/** A USD amount typed (`49.99`, `$49.99`, `1,000`): exact cents by the typed command's parser, or its refusal. */
export function readUsdAmount(text: string): AmountReading {
  if (text.trim() === '') return { empty: true };
  try {
    return { units: parseUsdAmount(text) };
  } catch (error) {
    if (error instanceof AmountError) return { refused: error.reason };
    throw error;
  }
}

/** mrkdwn refusal words as plain text for under a field: entities decoded, emoji codes and markers dropped. */
export function plainWords(mrkdwn: string): string {
  return decodeSlackEntities(
    mrkdwn
      .replace(/:[a-z_]+: /g, '')
      .replace(/<@([A-Z0-9]+)>/g, '@$1')
      .replace(/[*`]/g, '')
      .replace(/(^|\s)_([^_]+)_/g, '$1$2'),
  );
}
