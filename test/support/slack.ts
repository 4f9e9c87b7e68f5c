import { blocksToText, findButtons } from './rig/blocks-text.js';
import type { LocalStack } from './rig/local-stack.js';
import type { CommandOptions, DriverResult } from './rig/slack-driver.js';
import type { RecordedResponse } from './rig/slack-stand-in.js';

/** What the person who typed a command ends up seeing. */
export interface Answer {
  result: DriverResult;
  reply: RecordedResponse;
  /** All visible text of the reply (blocks, or the plain text when there are none). */
  text: string;
  buttons: ReturnType<typeof findButtons>;
}

/** Reads what came back on a response_url, as text a person would see. */
export function toAnswer(result: DriverResult, reply: RecordedResponse): Answer {
  const blocks = reply.blocks ?? [];
  return { result, reply, text: blocks.length > 0 ? blocksToText(blocks) : (reply.text ?? ''), buttons: findButtons(blocks) };
}

/** Sends `/treasury <text>` and waits for the answer posted to its response_url. */
export async function ask(stack: LocalStack, text: string, options?: CommandOptions): Promise<Answer> {
  const result = await stack.driver.command(text, options);
  if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status}`);
  const [reply] = await result.waitForResponses(1);
  return toAnswer(result, reply!);
}

/** Clicks a button of an earlier answer and waits for what the click posts back. */
export async function click(stack: LocalStack, answer: Answer, actionId: string, options?: { userId?: string }): Promise<Answer> {
  const result = await stack.driver.clickButtonIn({ ts: '1700000000.000100', blocks: answer.reply.blocks ?? [] }, actionId, options);
  if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status}`);
  const [reply] = await result.waitForResponses(1);
  return toAnswer(result, reply!);
}
