import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { SlackMessage } from '../../blocks/common.js';
import { buildFailure } from '../../blocks/errors.js';
import { buildHelp } from '../../blocks/help.js';
import { parseTreasuryCommand, type TreasuryCommand } from '../../commands/parse.js';
import { refusalText } from '../../features/access/rules.js';
import { buildAlertStatus } from '../../features/alerts/blocks.js';
import * as lookups from '../../features/lookups/service.js';
import { errorFields } from '../../logger.js';
import { type ConversationKind, conversationKindOf } from '../../slack/conversations.js';
import { type ListenerDeps, refreshHomeAfterAct } from '../deps.js';

/** Runs one parsed command; every answer is a message, failures included. */
async function run(
  deps: ListenerDeps,
  command: TreasuryCommand,
  from: {
    userId: string;
    channelId: string;
    conversation: ConversationKind;
    responseUrl: string;
    /** Settles once the command's own answer was delivered: work that answers later waits for it. */
    answered: Promise<void>;
  },
): Promise<SlackMessage> {
  switch (command.kind) {
    case 'help':
      return buildHelp([], command.unknown);
    case 'balances':
      return lookups.showBalances(deps);
    case 'balance':
      return lookups.showBalance(deps, command.asset);
    case 'invoice-info':
      return lookups.showInvoice(deps, command.invoiceId);
    case 'invoice-create': {
      // Followed until it leaves pending (part 16) when the poller runs; its creator then gets a direct message.
      const follower = deps.invoices;
      return lookups.createInvoice(
        deps,
        command.amount,
        command.words,
        command.options,
        follower ? (invoice) => follower.follow(invoice, from.userId) : undefined,
      );
    }
    case 'withdrawals':
      return lookups.showWithdrawals(deps, command.page);
    case 'withdrawal':
      return lookups.showWithdrawal(deps, command.withdrawalId);
    case 'payouts':
      return lookups.startPayoutTaskList(deps, command.status, command.asset, command.payoutId);
    case 'payout-create':
      return deps.payouts.propose({ ...from, assetRef: command.asset, name: command.name });
    case 'task':
      return lookups.showPayoutTask(deps, command.taskId);
    case 'deposit':
      return lookups.showDeposit(deps, command.depositId);
    case 'gas':
      return lookups.showGas(deps, { status: command.status, cursor: null, offset: 0 });
    case 'swap-quote':
      return deps.swaps.requestQuote({ ...from, amountText: command.amount, fromRef: command.from, toRef: command.to });
    case 'swap-info':
      return deps.swaps.showSwap(command.swapId);
    case 'swaps':
      return deps.swaps.showHistory();
    case 'policy':
      return deps.swaps.describePolicy(deps.access.treasuryUsers, command.amountCents);
    case 'alerts':
      return buildAlertStatus((await deps.alerts?.status()) ?? null, deps.now());
    case 'alerts-open':
      return deps.alertActions ? deps.alertActions.listOpen() : buildAlertStatus(null, deps.now());
    case 'thresholds':
      return deps.thresholds.list(from.userId);
    case 'threshold-set': {
      const reply = await deps.thresholds.set(from.userId, command.asset, command.amount, command.usd);
      refreshHomeAfterAct(deps, from.userId);
      return reply;
    }
    case 'threshold-off': {
      const reply = await deps.thresholds.remove(from.userId, command.asset);
      refreshHomeAfterAct(deps, from.userId);
      return reply;
    }
    case 'digest':
      return deps.digest.show();
    case 'audit': {
      // Answered at once; the file follows in the requester's DM, and a failure is told where they asked.
      const tell = (message: SlackMessage) =>
        deps.slack.respond(
          from.responseUrl,
          { response_type: 'ephemeral', ...message },
          { channelId: from.channelId, userId: from.userId },
        );
      const { reply, send } = await deps.audit.request(
        from.userId,
        { ms: command.periodMs, text: command.period },
        tell,
      );
      // After "the file will arrive…" has reached the person, so a quick failure never arrives before it.
      if (send)
        deps.background.run('an audit export', async () => {
          await from.answered;
          await send();
        });
      return reply;
    }
  }
}

/**
 * `/treasury …`: acknowledged at once, before any API call (Slack gives up after 3 seconds and the API may
 * be slower), then answered privately through the response_url: treasury data is sensitive. The answer is
 * worked out after the listener returns (see background.ts), holding only the fields it needs.
 */
export function createTreasuryCommandListener(deps: ListenerDeps) {
  return async ({ command, ack }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    // TREASURY_USERS: refused in the ack when that needs no question to Slack; membership of a user group is
    // looked up after the ack (Slack gives up after 3 seconds), and an unknown one refuses.
    const known = deps.access.known(command.user_id);
    if (known !== undefined && !known.allowed) {
      await ack({ response_type: 'ephemeral', text: refusalText(known) });
      return;
    }
    await ack();
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
      await answer(deps, { text, userId, channelId, conversation, responseUrl });
    });
  };
}

/** Runs the command and delivers its answer (a failure included) to the person who typed it. */
async function answer(
  deps: ListenerDeps,
  command: { text: string; userId: string; channelId: string; conversation: ConversationKind; responseUrl: string },
): Promise<void> {
  let reply: SlackMessage;
  let markAnswered = (): void => undefined;
  const answered = new Promise<void>((resolve) => {
    markAnswered = resolve;
  });
  try {
    reply = await run(deps, parseTreasuryCommand(command.text), {
      userId: command.userId,
      channelId: command.channelId,
      conversation: command.conversation,
      responseUrl: command.responseUrl,
      answered,
    });
  } catch (error) {
    deps.logger.warn('command failed', { subcommand: command.text.split(/\s+/)[0], error: errorFields(error) });
    reply = buildFailure(error);
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
