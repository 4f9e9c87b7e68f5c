// The checks every Block Kit family shares: text objects, strings, arrays and enums, as Slack counts them.
import { type BlockKitProblem, MESSAGE_LIMITS } from './limits.js';

/** The problems found so far, appended to by each check. */
export type Problems = BlockKitProblem[];
/** A JSON object of a request. */
export type Json = Record<string, unknown>;

const TEXT_TYPES = ['plain_text', 'mrkdwn'] as const;

/** `message [json-pointer:/blocks/0]`: how chat.postMessage lists a problem in `errors`. */
export function describeProblem(problem: BlockKitProblem): string {
  return `${problem.message} [json-pointer:${problem.pointer}]`;
}

/** "Text object": type plain_text or mrkdwn (some places plain_text only), text of 1 to `max` characters. */
export function checkText(
  value: unknown,
  pointer: string,
  rule: { max: number; plainOnly?: boolean },
  problems: Problems,
): void {
  if (!isRecord(value)) {
    problems.push({ pointer, message: 'must be an object' });
    return;
  }
  const allowed: readonly string[] = rule.plainOnly ? ['plain_text'] : TEXT_TYPES;
  if (value.type === undefined) problems.push({ pointer, message: 'missing required field: type' });
  else if (typeof value.type !== 'string' || !allowed.includes(value.type)) {
    problems.push({ pointer: `${pointer}/type`, message: `unsupported type: ${String(value.type)}` });
  }
  if (value.text === undefined) problems.push({ pointer, message: 'missing required field: text' });
  else checkString(value.text, `${pointer}/text`, Math.min(rule.max, MESSAGE_LIMITS.textObject), problems, 1);
  for (const flag of ['emoji', 'verbatim'] as const) {
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') {
      problems.push({ pointer: `${pointer}/${flag}`, message: 'must be a boolean' });
    }
  }
}

/** True when the value is a string within the limits. */
export function checkString(value: unknown, pointer: string, max: number, problems: Problems, min = 0): boolean {
  if (typeof value !== 'string') {
    problems.push({ pointer, message: 'must be a string' });
    return false;
  }
  const length = charCount(value);
  if (length < min) {
    problems.push({ pointer, message: `must be more than ${min - 1} characters` });
    return false;
  }
  if (length > max) {
    problems.push({ pointer, message: `must be less than ${max + 1} characters` });
    return false;
  }
  return true;
}

/** The array when it is one with `min` (default 1) to `max` items (the items are checked by the caller). */
export function checkArray(
  value: unknown,
  pointer: string,
  max: number,
  problems: Problems,
  min = 1,
): readonly unknown[] | undefined {
  if (!Array.isArray(value)) {
    problems.push({ pointer, message: 'must be an array' });
    return undefined;
  }
  if (value.length < min) problems.push({ pointer, message: `must provide at least ${min} item` });
  if (value.length > max) problems.push({ pointer, message: `no more than ${max} items allowed` });
  return value;
}

/** Records a problem unless the value is one of `allowed`. */
export function checkEnum(value: unknown, pointer: string, allowed: readonly string[], problems: Problems): void {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    problems.push({ pointer, message: `must be one of: ${allowed.join(', ')}` });
  }
}

/** The length as Slack counts it: characters, not UTF-16 code units (an emoji outside the BMP is one). */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** The parsed JSON, or undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a value is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
