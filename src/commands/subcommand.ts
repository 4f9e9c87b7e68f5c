/**
 * What a `/treasury` subcommand module declares: its name, its lines in help with examples, who may run it, how
 * it reads its text and what it does. src/commands/index.ts registers every module; help, the parser's dispatch
 * and the slash-command listener read that table.
 */
import type { SlackMessage } from '../blocks/common.js';
import type { AlertStatusView } from '../features/alerts/blocks.js';
import type { FeatureServices } from '../services.js';
import type { ConversationKind } from '../slack/conversations.js';
import type { ListenerPlatform } from '../slack/listener-kit.js';

/** One line of help: the syntax after `/treasury`, and what it does (mrkdwn, with an example). */
export type UsageLine = readonly [syntax: string, what: string];

/** The groups `/treasury help` lists the subcommands in, in this order, each with its title. */
export const HELP_GROUPS = {
  'look-up': 'Look up',
  'get-paid': 'Get paid',
  'move-money': 'Move money',
  alerts: 'Alerts',
  controls: 'Controls',
} as const;
/** One of HELP_GROUPS. */
export type HelpGroup = keyof typeof HELP_GROUPS;

/** What `/treasury help` was asked: nothing (the groups), or `topic`, a word that may name a subcommand. */
export interface HelpAsk {
  topic?: string;
}

/**
 * Who may run a subcommand. Every one is behind TREASURY_USERS, which the listener checks before the text is read
 * (in the ack when it can); `admins` (TREASURY_ADMINS, by default the swap approvers) is checked on top of it by the
 * feature service, which words the refusal.
 */
export type Access = 'treasury-users' | 'admins';

/**
 * What the subcommands are handed: the platform (the Slack gateway, the payment API, the clock, the logger), every
 * feature service (src/services.ts, the one list) and the alert poller's status (built with its job).
 */
export type CommandDeps = ListenerPlatform &
  FeatureServices & {
    /** The alert poller's status; undefined when ALERT_CHANNEL is unset (the poller is off). */
    alerts: { status(): Promise<AlertStatusView> } | undefined;
  };

/** Who typed the command, where, and how to answer them later. */
export interface CommandContext {
  deps: CommandDeps;
  userId: string;
  channelId: string;
  conversation: ConversationKind;
  responseUrl: string;
  /**
   * The command's trigger_id (a modal opens with it once) and until when, in ms since the epoch on this machine's
   * clock, it can still open one (Slack allows 3 s from the command); absent when Slack sent none.
   */
  trigger?: { id: string; openBy: number };
  /** Settles once the command's own answer was delivered: work that answers later waits for it. */
  answered: Promise<void>;
  /** The help message: the groups, or one subcommand's lines when `topic` names one (see HelpAsk). */
  help(ask: HelpAsk): SlackMessage;
}

/** One `/treasury` subcommand; `Command` is what `parse` makes of its text and `run` takes. */
export interface Subcommand<Command extends { kind: string }> {
  /** The word after `/treasury` that selects it (any case). */
  name: string;
  /** Other words that select it (true aliases only). */
  aliases?: readonly string[];
  /** Where `/treasury help` lists it; only help itself has none (the foot of help names it). */
  group?: HelpGroup;
  /** Its lines in `/treasury help <name>`, in order. */
  usage: readonly UsageLine[];
  /** A line under them there (mrkdwn): what the lines have no room for, such as options. */
  note?: string;
  /** Texts after `/treasury` that select it and parse (a test holds every one to this). */
  examples: readonly string[];
  /** Who may run it (see Access). */
  access: Access;
  /** Reads the words after the name: the typed command, or a UsageError with the refusal. */
  parse(args: readonly string[]): Command;
  /**
   * Does it: calls the feature and returns the private answer (a failure is thrown and answered by the listener);
   * undefined when the answer is a modal it opened, so nothing is posted.
   */
  run(command: Command, context: CommandContext): Promise<SlackMessage | undefined>;
}

/** Declares a subcommand module (typed by its parsed command). */
export function defineSubcommand<Command extends { kind: string }>(
  subcommand: Subcommand<Command>,
): Subcommand<Command> {
  return subcommand;
}
