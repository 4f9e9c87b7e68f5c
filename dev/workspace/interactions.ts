/**
 * What people do in the local workspace's page, as Slack's client and servers turn it into requests to the app: a
 * slash command, a button clicked or an option chosen in a static menu (`block_actions`), a modal submitted or
 * closed (`view_submission`, `view_closed`), the app's Home tab opened (the `app_home_opened` event) and a button
 * clicked in it (`block_actions` from a `view` container). It issues response_urls and trigger_ids as Slack does and remembers
 * whose trigger each was, so that a modal the app opens with one (`views.open` on the stand-in) opens for that
 * person; and it acts on the app's answer to a submission as Slack does: errors under the inputs, the view
 * replaced (`update`) or another put on top (`push`), every view closed (`clear`), or, on an empty answer, the
 * submitted view closed.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../src/logger.js';
import { describeProblem, validateModalView } from './block-kit-validation.js';
import { PageRequestError } from './server.js';
import {
  appHomeOpenedPayload,
  type ButtonClick,
  blockActionsPayload,
  type DeclaredShortcut,
  type EnteredValues,
  globalShortcutPayload,
  homeBlockActionsPayload,
  type InputTrigger,
  menuOptions,
  type OptionChoice,
  type Person,
  type RequestKind,
  readViewAnswer,
  slashCommandPayload,
  type Team,
  type ViewAnswer,
  viewBlockActionsPayload,
  viewClosedPayload,
  viewStateValues,
  viewSubmissionPayload,
} from './slack-requests.js';
import type { SlackStandIn } from './slack-stand-in.js';
import type { OpenModal, ResponseTarget, Timeline } from './timeline.js';

/** Someone in the workspace: Slack's user id and handle, and the name the page shows. */
export interface WorkspacePerson extends Person {
  displayName: string;
}

/** A conversation: its id, the `channel_name` Slack sends from it, and who is in it. */
export interface WorkspaceConversation {
  id: string;
  slackName: string;
  members: readonly string[];
}

export interface InteractionsOptions {
  team: Team;
  people: readonly WorkspacePerson[];
  conversations: readonly WorkspaceConversation[];
  slack: Pick<SlackStandIn, 'createResponseUrl' | 'botUserId' | 'botId' | 'onEvent' | 'homeView'>;
  timeline: Timeline;
  /**
   * Hands a payload to the app as Slack would (a signed request, or a Socket Mode envelope) and resolves with the
   * body of its answer: undefined when empty, parsed JSON, or the text when it is not JSON.
   */
  deliver(kind: RequestKind, payload: Record<string, unknown>): Promise<unknown>;
  logger: Logger;
  /** The workspace's clock (trigger_ids carry it: the stand-in reads their age from it). Default Date.now. */
  now?: () => number;
  /** The shortcuts the app's manifest declares: the only ones a person can pick. */
  shortcuts?: readonly DeclaredShortcut[];
}

/** A slash command typed in a conversation. */
export interface CommandRequest {
  user: string;
  channel: string;
  text: string;
}

/** A button clicked, or (with `selectedValue`) an option chosen in a static menu, in a message of the timeline. */
export interface ActionRequest {
  user: string;
  entryId: string;
  blockId: string;
  actionId: string;
  value?: string | undefined;
  /** The value of the option chosen in the `static_select` with this action_id. */
  selectedValue?: string | undefined;
  /** The control is in this attachment of the message (1 first, Slack's `attachment_id`), not in its blocks. */
  attachmentId?: number | undefined;
}

/** A modal submitted with what was entered in it (by block_id, then action_id). */
export interface ViewSubmissionRequest {
  user: string;
  viewId: string;
  values: EnteredValues;
}

/** A modal closed (its Close button, ×, or Escape), with what was entered in it so far. */
export interface ViewClosedRequest {
  user: string;
  viewId: string;
  values?: EnteredValues | undefined;
}

/**
 * An element used inside an open modal: an option chosen in a menu, or text typed (or Enter pressed) in an input
 * whose block dispatches; `values` is everything entered in the modal now.
 */
export interface ViewActionRequest {
  user: string;
  viewId: string;
  blockId: string;
  actionId: string;
  trigger?: InputTrigger | undefined;
  values: EnteredValues;
}

/** A global shortcut picked (from the composer's shortcuts or search). */
export interface ShortcutRequest {
  user: string;
  callbackId: string;
}

/** A button clicked in the person's Home tab (the view the app last published for them). */
export interface HomeActionRequest {
  user: string;
  blockId: string;
  actionId: string;
  value?: string | undefined;
}

export interface Interactions {
  command(request: CommandRequest): Promise<void>;
  /**
   * The person opened the app's Home tab: the app hears `app_home_opened` (with the view Slack shows them, once one
   * was published) and publishes their Home with `views.publish`; the page shows what the stand-in then holds.
   */
  openHome(request: { user: string }): Promise<void>;
  /** A button clicked in the person's Home tab, sent as Slack sends it: no channel, message or response_url. */
  homeAction(request: HomeActionRequest): Promise<void>;
  action(request: ActionRequest): Promise<void>;
  /**
   * Sends the submission and acts on the app's answer; resolves with that answer (null: empty, the view closed).
   * Rejects with a {@link PageRequestError} when the form cannot be sent (closed, a required input empty), and with
   * the reason when Slack would refuse the app's answer (the person would see "We had some trouble connecting").
   */
  submitView(request: ViewSubmissionRequest): Promise<ViewAnswer | null>;
  /** Closes the modal; the app hears of it (`view_closed`) only when the view asked for it (`notify_on_close`). */
  closeView(request: ViewClosedRequest): Promise<void>;
  /**
   * Sends `block_actions` from inside the modal (its id, hash and state) as Slack does; rejects with a
   * {@link PageRequestError} for what Slack's client would not send (the form closed, an input that does not
   * dispatch). The app answers by updating the view (`views.update`), which the page then shows.
   */
  viewAction(request: ViewActionRequest): Promise<void>;
  /** Sends the global shortcut (`shortcut`, with a fresh trigger_id); only the ones the manifest declares. */
  shortcut(request: ShortcutRequest): Promise<void>;
  /** Stops following the stand-in's events. */
  close(): void;
}

// "Modals": a person's stack holds at most three views.
const MAX_VIEW_STACK = 3;
// Enough to cover every trigger still usable (3 s) at any pace a person clicks.
const REMEMBERED_TRIGGERS = 500;

/** Wires the page's requests to the app, and the stand-in's messages and modals to the timeline. */
export function createInteractions(options: InteractionsOptions): Interactions {
  const { team, slack, timeline, deliver, logger } = options;
  const now = options.now ?? Date.now;
  const targets = new Map<string, ResponseTarget>();
  const triggers = new Map<string, string>();

  const person = (userId: string) => options.people.find((p) => p.id === userId);
  const conversation = (channelId: string) => options.conversations.find((c) => c.id === channelId);
  const isIn = (where: WorkspaceConversation, userId: string) => where.members.includes(userId);
  // What Slack puts in a command or click from a conversation: its id and the name it sends for it.
  const placeOf = (where: WorkspaceConversation) => ({ id: where.id, name: where.slackName });

  /** Remembers whose trigger it is: a modal opened with it opens for them. */
  const issued = (payload: Record<string, unknown>, userId: string) => {
    if (typeof payload.trigger_id === 'string') triggers.set(payload.trigger_id, userId);
    if (triggers.size > REMEMBERED_TRIGGERS) triggers.delete(triggers.keys().next().value!);
    return payload;
  };

  /** Shows what the app's ack itself said (a refusal, for instance), privately, as Slack does. */
  const showAck = (ack: unknown, target: ResponseTarget): void => {
    if (ack === undefined) return;
    if (typeof ack === 'string') {
      timeline.addPrivate(target.channel, target.userId, { text: ack }, 'system');
      return;
    }
    const { text, blocks } = (typeof ack === 'object' && ack !== null ? ack : {}) as {
      text?: string;
      blocks?: unknown[];
    };
    if (text !== undefined || blocks !== undefined)
      timeline.addPrivate(target.channel, target.userId, {
        ...(text !== undefined ? { text } : {}),
        ...(blocks ? { blocks } : {}),
      });
  };

  const unsubscribe = slack.onEvent((event) => {
    if (event.type !== 'view') {
      timeline.apply(event, (url) => targets.get(url));
      return;
    }
    if (event.change === 'updated') {
      // A view the person has closed stays closed.
      const open = timeline.findModal(event.id);
      if (open) timeline.showModal({ ...open, view: withSlackIds(event.view), hash: event.hash });
      return;
    }
    const userId = triggers.get(event.triggerId);
    if (userId === undefined) {
      logger.debug('workspace: a view was opened with a trigger the page did not issue', { view: event.id });
      return;
    }
    timeline.showModal({ id: event.id, userId, view: withSlackIds(event.view), hash: event.hash });
  });

  const openModalOf = (userId: string, viewId: string): { who: WorkspacePerson; modal: OpenModal } => {
    const who = person(userId);
    const modal = timeline.findModal(viewId);
    if (!who || !modal || modal.userId !== who.id) throw new PageRequestError('That form is closed.');
    return { who, modal };
  };

  /** Refuses an answer Slack would refuse; the person sees the reason and the view stays. */
  const refuseAnswer = (problem: string): never => {
    logger.warn('workspace: Slack would refuse the bot’s answer to a view submission', { problem });
    throw new Error(`Slack would show “We had some trouble connecting. Try again?”: ${problem}`);
  };

  return {
    async command({ user, channel, text }) {
      const who = person(user);
      const where = conversation(channel);
      if (!who || !where) throw new Error('unknown user or channel');
      if (!isIn(where, who.id)) throw new Error(`${who.displayName} is not in that conversation.`);
      const [command, ...rest] = text.trim().split(/\s+/);
      timeline.addTyped(where.id, who.id, text.trim());
      if (command !== '/treasury') {
        timeline.addPrivate(
          where.id,
          who.id,
          { text: `${command ?? 'That'} is not a command here: this workspace only has the bot's /treasury command.` },
          'system',
        );
        return;
      }
      const responseUrl = slack.createResponseUrl();
      const target = { channel: where.id, userId: who.id };
      targets.set(responseUrl, target);
      const payload = slashCommandPayload(
        team,
        who,
        placeOf(where),
        '/treasury',
        rest.join(' '),
        responseUrl,
        {},
        now(),
      );
      showAck(await deliver('slash_commands', issued(payload, who.id)), target);
    },

    async action({ user, entryId, blockId, actionId, value, selectedValue, attachmentId }) {
      const who = person(user);
      const entry = timeline.find(entryId);
      const where = entry && conversation(entry.channel);
      if (!who || !entry || !where) throw new Error('That message is gone.');
      if (!isIn(where, who.id)) throw new Error(`${who.displayName} is not in that conversation.`);
      if (entry.ephemeral && entry.userId !== who.id) throw new Error('That message is not yours.');
      const responseUrl = slack.createResponseUrl({ channel: where.id, ts: entry.ts });
      const target = { channel: where.id, userId: who.id };
      targets.set(responseUrl, target);
      let blocks = entry.blocks;
      if (attachmentId !== undefined) {
        const attachment = entry.attachments?.[attachmentId - 1];
        if (!isJson(attachment)) throw new PageRequestError('That part of the message is not there any more.');
        blocks = Array.isArray(attachment.blocks) ? attachment.blocks : [];
      }
      const element = findElement(blocks, blockId, actionId);
      const message = {
        ts: entry.ts,
        ephemeral: entry.ephemeral,
        ...(entry.text !== undefined ? { text: entry.text } : {}),
        ...(entry.blocks ? { blocks: entry.blocks } : {}),
        ...(entry.attachments ? { attachments: entry.attachments } : {}),
        ...(entry.threadTs !== undefined ? { threadTs: entry.threadTs } : {}),
      };
      // Slack reports where the control is: a click in an attachment names it.
      const inAttachment = attachmentId !== undefined ? { attachmentId } : {};
      let click: ButtonClick | OptionChoice;
      if (selectedValue !== undefined) {
        if (element?.type !== 'static_select') throw new PageRequestError('That menu is not in the message any more.');
        const option = menuOptions(element).find((o) => o.value === selectedValue);
        if (!option) throw new PageRequestError('That option is not in the menu any more.');
        click = {
          actionId,
          blockId,
          selectedOption: option,
          ...(element.placeholder !== undefined ? { placeholder: element.placeholder } : {}),
          message,
          ...inAttachment,
        };
      } else {
        const label = (element?.text as { text?: unknown } | undefined)?.text;
        click = {
          actionId,
          blockId,
          text: typeof label === 'string' ? label : actionId,
          ...(value !== undefined ? { value } : {}),
          message,
          ...inAttachment,
        };
      }
      const payload = blockActionsPayload(team, who, placeOf(where), click, slack.botUserId, responseUrl, now());
      showAck(await deliver('interactive', issued(payload, who.id)), target);
    },

    async openHome({ user }) {
      const who = person(user);
      if (!who) throw new Error('unknown user');
      // The event names the person's direct message with the app (its Messages tab) as its channel.
      const dm = options.conversations.find(
        (c) => c.slackName === 'directmessage' && c.members.includes(who.id) && c.members.includes(slack.botUserId),
      );
      const payload = appHomeOpenedPayload(team, who, {
        channel: dm?.id ?? `D${who.id.slice(1)}`,
        botUserId: slack.botUserId,
        botId: slack.botId,
        home: slack.homeView(who.id),
        now: now(),
      });
      await deliver('events_api', payload);
    },

    async homeAction({ user, blockId, actionId, value }) {
      const who = person(user);
      if (!who) throw new Error('unknown user');
      const home = slack.homeView(who.id);
      if (!home) throw new PageRequestError('The Home tab has not been published yet.');
      // Slack's client can only send what the view shows.
      const element = findElement(Array.isArray(home.view.blocks) ? home.view.blocks : [], blockId, actionId);
      if (element?.type !== 'button') throw new PageRequestError('That button is not on the Home tab any more.');
      const label = (element.text as { text?: unknown } | undefined)?.text;
      const payload = homeBlockActionsPayload(
        team,
        who,
        home,
        {
          actionId,
          blockId,
          text: typeof label === 'string' ? label : actionId,
          ...(value !== undefined ? { value } : {}),
        },
        slack.botId,
        now(),
      );
      await deliver('interactive', issued(payload, who.id));
    },

    async submitView({ user, viewId, values }) {
      const { who, modal } = openModalOf(user, viewId);
      let state: ReturnType<typeof viewStateValues>;
      try {
        state = viewStateValues(modal.view, values);
      } catch (error) {
        throw new PageRequestError(`The form could not be sent: ${error instanceof Error ? error.message : error}.`);
      }
      // A user menu lists the workspace's people only.
      const strangers = Object.values(state)
        .flatMap((actions) => Object.values(actions))
        .flatMap((element) => (typeof element.selected_user === 'string' ? [element.selected_user] : []))
        .filter((userId) => person(userId) === undefined);
      if (strangers.length > 0)
        throw new PageRequestError(`The form could not be sent: nobody in this workspace is ${strangers.join(', ')}.`);
      const missing = inputBlocks(modal.view).filter(
        (block) => block.optional !== true && isEmptyState(state[block.blockId]?.[block.actionId]),
      );
      // Slack's client does not send a form with a required input left empty.
      if (missing.length > 0)
        throw new PageRequestError(`Please fill in: ${missing.map((block) => block.label).join(', ')}.`);

      const payload = viewSubmissionPayload(team, who, modal, state, slack.botId, now());
      const read = readViewAnswer(
        await deliver('interactive', issued(payload, who.id)),
        inputBlocks(modal.view).map((block) => block.blockId),
      );
      if ('problem' in read) return refuseAnswer(read.problem);
      const { answer } = read;
      switch (answer?.response_action) {
        case undefined:
          timeline.closeModal(modal.id);
          break;
        case 'errors':
          break;
        case 'update':
        case 'push': {
          // Held to the rules views.open and views.update are held to.
          const problems = validateModalView(answer.view);
          if (problems.length > 0)
            return refuseAnswer(
              `the view in response_action "${answer.response_action}" breaks Block Kit's rules: ${problems.map(describeProblem).join('; ')}`,
            );
          if (answer.response_action === 'update') {
            timeline.showModal({ ...modal, view: withSlackIds(answer.view), hash: newHash(now()) });
          } else {
            if (timeline.modalsOf(who.id).length >= MAX_VIEW_STACK)
              return refuseAnswer(`a push would make more than ${MAX_VIEW_STACK} views in the stack`);
            timeline.showModal({
              id: newViewId(),
              userId: who.id,
              view: withSlackIds(answer.view),
              hash: newHash(now()),
            });
          }
          break;
        }
        case 'clear':
          timeline.closeModalsOf(who.id);
          break;
      }
      return answer ?? null;
    },

    async closeView({ user, viewId, values }) {
      const who = person(user);
      const modal = timeline.findModal(viewId);
      // Closing what is already closed (a second click, another tab) does nothing.
      if (!who || !modal || modal.userId !== who.id) return;
      timeline.closeModal(modal.id);
      if (modal.view.notify_on_close !== true) return;
      let state: ReturnType<typeof viewStateValues>;
      try {
        state = viewStateValues(modal.view, values);
      } catch {
        state = viewStateValues(modal.view);
      }
      // Slack shows the person nothing about the app's answer to a close: a failure is for the log.
      try {
        await deliver('interactive', viewClosedPayload(team, who, modal, state, slack.botId));
      } catch (error) {
        logger.warn('workspace: the bot did not take a view_closed', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },

    async viewAction({ user, viewId, blockId, actionId, trigger, values }) {
      const { who, modal } = openModalOf(user, viewId);
      let payload: Record<string, unknown>;
      try {
        payload = viewBlockActionsPayload(
          team,
          who,
          modal,
          { blockId, actionId, ...(trigger !== undefined ? { trigger } : {}) },
          values,
          slack.botId,
          now(),
        );
      } catch (error) {
        throw new PageRequestError(`Slack would not send that: ${error instanceof Error ? error.message : error}.`);
      }
      await deliver('interactive', issued(payload, who.id));
    },

    async shortcut({ user, callbackId }) {
      const who = person(user);
      if (!who) throw new Error('unknown user');
      let payload: Record<string, unknown>;
      try {
        payload = globalShortcutPayload(team, who, callbackId, options.shortcuts ?? [], now());
      } catch (error) {
        throw new PageRequestError(error instanceof Error ? error.message : String(error));
      }
      await deliver('interactive', issued(payload, who.id));
    },

    close: unsubscribe,
  };
}

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The element with `actionId` (in the block with `blockId`, unless the page knows none) in a message's blocks. */
function findElement(blocks: unknown[] | undefined, blockId: string, actionId: string): Json | undefined {
  for (const block of blocks ?? []) {
    if (!isJson(block) || (blockId !== '' && block.block_id !== blockId)) continue;
    const elements = [...(Array.isArray(block.elements) ? block.elements : []), block.accessory];
    const found = elements.find((element) => isJson(element) && element.action_id === actionId);
    if (found) return found as Json;
  }
  return undefined;
}

/** The input blocks of a view: ids, label (for "please fill in") and whether it may stay empty. */
function inputBlocks(view: Json): Array<{ blockId: string; actionId: string; label: string; optional: boolean }> {
  return (Array.isArray(view.blocks) ? view.blocks : []).flatMap((block) => {
    if (!isJson(block) || block.type !== 'input' || !isJson(block.element)) return [];
    const { block_id: blockId } = block;
    const { action_id: actionId } = block.element;
    if (typeof blockId !== 'string' || typeof actionId !== 'string') return [];
    const label = isJson(block.label) && typeof block.label.text === 'string' ? block.label.text : blockId;
    return [{ blockId, actionId, label, optional: block.optional === true }];
  });
}

function isEmptyState(state: Json | undefined): boolean {
  return (
    state === undefined ||
    ((state.value ?? null) === null &&
      (state.selected_option ?? null) === null &&
      (state.selected_user ?? null) === null &&
      (state.selected_conversation ?? null) === null)
  );
}

/**
 * The view as Slack holds it: a block without a block_id gets one, and an input's element without an action_id
 * gets one (Slack makes them up when the app leaves them out, and reports them in payloads).
 */
function withSlackIds(view: Json): Json {
  const copy = structuredClone(view);
  if (!Array.isArray(copy.blocks)) return copy;
  for (const block of copy.blocks) {
    if (!isJson(block)) continue;
    if (block.block_id === undefined) block.block_id = slackId();
    if (block.type === 'input' && isJson(block.element) && block.element.action_id === undefined)
      block.element.action_id = slackId();
  }
  return copy;
}

/** A short random id like the ones Slack makes up for blocks and actions. */
function slackId(): string {
  return randomBytes(4).toString('base64url').slice(0, 5);
}

function newViewId(): string {
  return `V${randomBytes(5).toString('hex').toUpperCase()}`;
}

/** Shaped like the stand-in's view hashes: `<seconds>.<hex>`. */
function newHash(nowMs: number): string {
  return `${Math.floor(nowMs / 1000)}.${randomBytes(6).toString('hex')}`;
}
