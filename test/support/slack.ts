import { blocksToText, findButtons } from './rig/blocks-text.js';
import type { LocalStack } from './rig/local-stack.js';
import type { CommandOptions, DriverResult } from './rig/slack-driver.js';
import type { RecordedResponse, StoredMessage } from './rig/slack-stand-in.js';

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
  return {
    result,
    reply,
    text: blocks.length > 0 ? blocksToText(blocks) : (reply.text ?? ''),
    buttons: findButtons(blocks),
  };
}

/** Sends `/treasury <text>` and waits for the answer posted to its response_url. */
export async function ask(stack: LocalStack, text: string, options?: CommandOptions): Promise<Answer> {
  const result = await stack.driver.command(text, options);
  if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status}`);
  const [reply] = await result.waitForResponses(1);
  return toAnswer(result, reply!);
}

/** Clicks a button of an earlier answer and waits for what the click posts back. */
export async function click(
  stack: LocalStack,
  answer: Answer,
  actionId: string,
  options?: { userId?: string },
): Promise<Answer> {
  const result = await stack.driver.clickButtonIn(
    { ts: '1700000000.000100', blocks: answer.reply.blocks ?? [] },
    actionId,
    options,
  );
  if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status}`);
  const [reply] = await result.waitForResponses(1);
  return toAnswer(result, reply!);
}

/** What a Share in channel click posted in the conversation (with chat.postMessage), as people there see it. */
export interface Shared {
  result: DriverResult;
  message: StoredMessage;
  text: string;
  buttons: ReturnType<typeof findButtons>;
}

/**
 * Clicks "Share in channel" on an earlier answer (in `channelId`, default the driver's) and waits for the copy
 * the bot posts there with chat.postMessage.
 */
export async function share(
  stack: LocalStack,
  answer: Answer,
  options: { userId?: string; channelId?: string } = {},
): Promise<Shared> {
  const channel = options.channelId ?? 'C_TREASURY';
  const before = stack.slack.messages(channel).length;
  const result = await stack.driver.clickButtonIn(
    { ts: '1700000000.000100', blocks: answer.reply.blocks ?? [] },
    'share_in_channel',
    { ...options, channelId: channel },
  );
  if (result.status !== 200) throw new Error(`the app answered HTTP ${result.status}`);
  const posted = await stack.slack.waitFor(
    () => stack.slack.messages(channel)[before],
    5_000,
    `the shared copy in ${channel}`,
  );
  return {
    result,
    message: posted,
    text: blocksToText(posted.blocks ?? []),
    buttons: findButtons(posted.blocks ?? []),
  };
}
