import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { SlackMessage } from '../../blocks/common.js';
import { buildFailure } from '../../blocks/errors.js';
import { buildHelp } from '../../commands/help-blocks.js';
import { readTreasuryCommand } from '../../commands/parse.js';
import type { CommandDeps } from '../../commands/subcommand.js';
import { refusalText } from '../../features/access/rules.js';
import { errorFields } from '../../logger.js';
import { type ConversationKind, conversationKindOf } from '../../slack/conversations.js';
import type { ListenerBinding } from '../../slack/listener-kit.js';
import { TREASURY_COMMAND } from '../edge.js';

/** How long after the command Slack accepts its trigger_id (3 s), less a margin for the ack's own trip. */
const TRIGGER_LIFE_MS = 2_800;

/**
 * `/treasury …`: acknowledged at once, before any API call (Slack gives up after 3 seconds and the API may
 * be slower), then answered privately through the response_url: treasury data is sensitive. The answer is
 * worked out after the listener returns (see background.ts), holding only the fields it needs.
 */
function createTreasuryCommandListener(deps: CommandDeps) {
  return async ({ command, ack }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    // TREASURY_USERS: refused in the ack when that needs no question to Slack; membership of a user group is
    // looked up after the ack (Slack gives up after 3 seconds), and an unknown one refuses.
    const known = deps.access.known(command.user_id);
    if (known !== undefined && !known.allowed) {
      await ack({ response_type: 'ephemeral', text: refusalText(known) });
      return;
    }
    await ack();
    // A modal opens with the command's trigger within Slack's 3 s; what the subcommand may still use of them.
    const trigger = command.trigger_id ? { id: command.trigger_id, openBy: Date.now() + TRIGGER_LIFE_MS } : undefined;
    const { text, user_id: userId, channel_id: channelId, response_url: responseUrl } = command;
    // A direct message, a private channel or a channel, as the payload says (see src/slack/conversations.ts).
    const conversation = conversationKindOf({ channelId, channelName: command.channel_name });
    deps.background.run('a /treasury command', async () => {
      const access = known ?? (await deps.access.check(userId));
      if (!access.allowed) {
        await deps.slack.respond(
          responseUrl,
          { response_type: 'ephemeral', text: refusalText(access) },
          { channelId, userId },
        );
        return;
      }
      await answer(deps, { text, userId, channelId, conversation, responseUrl, trigger });
    });
  };
}

/** Runs the command and delivers its answer (a failure included) to the person who typed it. */
async function answer(
  deps: CommandDeps,
  command: {
    text: string;
    userId: string;
    channelId: string;
    conversation: ConversationKind;
    responseUrl: string;
    trigger: { id: string; openBy: number } | undefined;
  },
): Promise<void> {
  let reply: SlackMessage | undefined;
  let markAnswered = (): void => undefined;
  const answered = new Promise<void>((resolve) => {
    markAnswered = resolve;
  });
  try {
    // The subcommand module (src/commands) reads the text and does the work; its refusals are thrown.
    reply = await readTreasuryCommand(command.text).run({
      deps,
      userId: command.userId,
      channelId: command.channelId,
      conversation: command.conversation,
      responseUrl: command.responseUrl,
      ...(command.trigger ? { trigger: command.trigger } : {}),
      answered,
      help: buildHelp,
    });
  } catch (error) {
    deps.logger.warn('command failed', { subcommand: command.text.split(/\s+/)[0], error: errorFields(error) });
    reply = buildFailure(error);
  }
  // A subcommand that opened a modal has nothing to post.
  if (reply === undefined) {
    markAnswered();
    return;
  }
  try {
    await deps.slack.respond(
      command.responseUrl,
      { response_type: 'ephemeral', ...reply },
      { channelId: command.channelId, userId: command.userId },
    );
  } finally {
    markAnswered();
  }
}

/** `/treasury`, bound to its handler. */
export const treasuryCommandListeners: ListenerBinding<CommandDeps>[] = [
  { kind: 'command', id: TREASURY_COMMAND, create: createTreasuryCommandListener },
];
