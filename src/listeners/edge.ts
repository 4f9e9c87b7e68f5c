import type { AllMiddlewareArgs, RespondFn } from '@slack/bolt';
import { z } from 'zod';
import { ACTION_IDS, FORM_ACTIONS, FORM_IDS, SHORTCUT_IDS, VIEW_IDS, WITHDRAWALS_PAGE_ACTIONS } from '../blocks/ids.js';
import {
  type InstallingOrg,
  isFromInstallingOrg,
  type OrgClaim,
  OUTSIDE_ORGANISATION,
} from '../features/access/rules.js';
import { buildResolveRefusedModal } from '../features/alerts/blocks.js';
import { readTypedText } from '../kernel/text.js';
import type { Logger } from '../logger.js';
import type { SlackGateway } from '../slack/gateway.js';
import { UNSUPPORTED_BUTTON } from '../slack/listener-kit.js';
import type { RequestGate } from './pipeline.js';

/** The only slash command this app declares. */
export const TREASURY_COMMAND = '/treasury';

const KNOWN_ACTIONS = new Set<string>(Object.values(ACTION_IDS));
const isKnownAction = (id: string) => KNOWN_ACTIONS.has(id) || WITHDRAWALS_PAGE_ACTIONS.test(id);

const SlackId = z.string().regex(/^[A-Z0-9_]{1,32}$/i);
const ResponseUrl = z.string().url().max(2_000);

const SLACK_ID = /^[A-Z0-9_]{1,32}$/i;

/**
 * What the listeners rely on in a slash command: who, where, and how to answer; `text` may be absent. Checked by
 * hand, not by a schema: this runs before every command's ack, and it only needs to name the first bad field.
 * Returns that field, or undefined when the command is well-formed.
 */
function commandProblem(body: Record<string, unknown>): string | undefined {
  if (typeof body.command !== 'string') return 'command';
  if (typeof body.user_id !== 'string' || !SLACK_ID.test(body.user_id)) return 'user_id';
  if (typeof body.channel_id !== 'string' || body.channel_id.length > 64) return 'channel_id';
  const url = body.response_url;
  if (typeof url !== 'string' || url.length > 2_000 || !URL.canParse(url)) return 'response_url';
  if (body.text !== undefined && (typeof body.text !== 'string' || body.text.length > 4_000)) return 'text';
  return undefined;
}

/**
 * What the listeners rely on in a button click. A click in a message carries a response_url; a click in a Home tab
 * (`container.type: view`) carries none, nor a channel or message (the block_actions payload reference).
 */
const BlockActionsBody = z.object({
  type: z.literal('block_actions'),
  // The clicker's own organisation: their workspace (T…), or their Grid organisation (E…). Not `team.id`, which
  // in a Slack Connect channel names the workspace the message is from (the block_actions payload reference).
  user: z.object({ id: SlackId, team_id: z.string().max(40).optional() }),
  actions: z
    .array(z.object({ action_id: z.string().max(255), type: z.string().optional(), value: z.string().optional() }))
    .length(1),
  response_url: ResponseUrl.optional(),
  container: z.object({ type: z.string().max(40).optional() }).optional(),
  channel: z.object({ id: z.string().max(64) }).optional(),
});

/**
 * The buttons whose listeners answer without a response_url: the Home tab's (Refresh, and an alert's Acknowledge
 * there; the other alert controls answer the same way). Any other listener answers on the response_url, so a click
 * from a view reaches it only if it is one of these.
 */
const VIEW_ACTIONS = new Set<string>([
  ACTION_IDS.homeRefresh,
  ACTION_IDS.alertAcknowledge,
  ACTION_IDS.alertResolve,
  ACTION_IDS.alertSnooze,
  // The Home tab's buttons that open a form (with the click's trigger).
  ACTION_IDS.homeNewInvoice,
  ACTION_IDS.homeSetThreshold,
  ACTION_IDS.homeNewSwap,
]);

/** A use of a form's input (a choice, a keystroke) from inside its modal: answered by updating the view. */
const isFormAction = (id: string) => FORM_ACTIONS.test(id) && KNOWN_ACTIONS.has(id);

/** What the listeners rely on in a global shortcut (the shortcuts payload reference). */
const ShortcutBody = z.object({
  type: z.literal('shortcut'),
  callback_id: z.string().max(255),
  trigger_id: z.string().max(255),
  user: z.object({ id: SlackId, team_id: z.string().max(40).optional() }),
});

const KNOWN_SHORTCUTS = new Set<string>(Object.values(SHORTCUT_IDS));

/** What the Home tab listener relies on in `app_home_opened` (the other events are acknowledged and dropped). */
const HomeOpenedEvent = z.object({
  type: z.literal('app_home_opened'),
  user: SlackId,
  tab: z.string().max(40).optional(),
  view: z.object({ hash: z.string().max(100).optional() }).optional(),
});

const KNOWN_VIEWS = new Set<string>([
  VIEW_IDS.alertResolve,
  // "Approve with a code" on a quote that needs a second factor.
  VIEW_IDS.swapStepUp,
  // `/treasury 2fa reset` without a member id: the person picker.
  VIEW_IDS.secondFactorReset,
  // The forms: a command with no arguments, a Home button or a shortcut opens them.
  ...Object.values(FORM_IDS),
]);

/** What the listeners rely on in a dialog submission. */
const ViewSubmissionBody = z.object({
  type: z.literal('view_submission'),
  user: z.object({ id: SlackId, team_id: z.string().max(40).optional() }),
  view: z.object({
    callback_id: z.string().max(255),
    private_metadata: z.string().max(3_000),
    state: z.object({ values: z.record(z.string(), z.record(z.string(), z.unknown())) }),
  }),
});

/** The organisation fields of an Events API envelope, as pairs to check (the envelope's, and the context's). */
function eventClaims(body: Record<string, unknown>): OrgClaim[] {
  const claims: OrgClaim[] = [{ team: body.team_id, enterprise: body.enterprise_id }];
  if (body.context_team_id !== undefined || body.context_enterprise_id !== undefined)
    claims.push({ team: body.context_team_id, enterprise: body.context_enterprise_id });
  return claims;
}

/**
 * The edge gate: every request that reaches a listener has the shape the listener reads, comes from a
 * person of the installing organisation, and every other signed request is acknowledged at once (Slack retries or
 * shows an error after 3 s without an answer). Nothing here answers 5xx or throws for bad input.
 *
 * Slack Connect: members of another organisation in a shared channel see the bot's messages and can click them.
 * Their command, click, dialog or Home tab is refused here, before any listener runs (so before any payment API
 * call or change of state), in plain words where Slack gives a way to answer: the command's ack, an ephemeral reply
 * on the click's response_url (no Web API fallback: nothing is posted anywhere for them), the dialog replaced by
 * the refusal. A Home tab they open gets nothing published; a click in one is acknowledged and dropped. Which
 * field names the person's organisation: a command's `team_id` (and `enterprise_id`), a click's or a dialog's
 * `user.team_id`, an event's `team_id` and `context_team_id` (and their enterprise ids). Until the installing
 * workspace is known (`installingOrg` undefined), everyone is refused.
 */
export function createEdgeGate(
  logger: Logger,
  slack: Pick<SlackGateway, 'respond'>,
  installingOrg: () => InstallingOrg | undefined,
): RequestGate {
  const inside = (claims: readonly OrgClaim[]) => {
    const org = installingOrg();
    return claims.every((claim) => isFromInstallingOrg(org, claim));
  };
  const refused = (kind: string, claim: OrgClaim) => {
    const org = installingOrg();
    logger.info('refused a request from outside the installing workspace', {
      kind,
      team: typeof claim.team === 'string' ? claim.team.slice(0, 40) : '(none)',
      ...(org === undefined ? { installingTeam: '(not known yet)' } : {}),
    });
  };
  return async (args, next) => {
    const { body } = args;
    const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
    const kind =
      typeof body === 'object' && body !== null
        ? ((body as { type?: unknown }).type ?? ('command' in body ? 'command' : undefined))
        : undefined;

    if (kind === 'command') {
      const command = body as Record<string, unknown>;
      const problem = commandProblem(command) ?? (command.command === TREASURY_COMMAND ? undefined : 'unknown command');
      if (problem !== undefined) {
        logger.warn('ignored a malformed or unknown slash command', { problem });
        await ack?.({ response_type: 'ephemeral', text: 'The bot could not read this command. Please type it again.' });
        return;
      }
      const claim = { team: command.team_id, enterprise: command.enterprise_id };
      if (!inside([claim])) {
        refused('command', claim);
        await ack?.({ response_type: 'ephemeral', text: OUTSIDE_ORGANISATION });
        return;
      }
      // Slack omits `text` for a bare command in some clients; listeners read it as a string. Slack sends it
      // escaped (`R&D <beta>` arrives as `R&amp;D &lt;beta&gt;`): this is the one place it is turned back into
      // what the person typed, so every listener, the payment API and the views get literal text.
      command.text = readTypedText((command.text as string | undefined) ?? '');
      await next();
      return;
    }

    if (kind === 'block_actions') {
      const click = BlockActionsBody.safeParse(body);
      if (!click.success) {
        logger.warn('ignored a malformed button click', { problem: click.error.issues[0]?.path.join('.') || '(body)' });
        await ack?.();
        return;
      }
      const actionId = click.data.actions[0]!.action_id;
      const claim = { team: click.data.user.team_id };
      if (!inside([claim])) {
        refused('click', claim);
        await ack?.();
        // Answered on the click's own response_url only: a Home click has none, and nothing is posted for them.
        if (click.data.response_url !== undefined)
          await slack.respond(
            click.data.response_url,
            { response_type: 'ephemeral', replace_original: false, text: OUTSIDE_ORGANISATION },
            { channelId: undefined, userId: click.data.user.id },
          );
        return;
      }
      if (click.data.response_url === undefined) {
        // A click in a view (the Home tab) has nowhere to be answered but the view itself.
        if (click.data.container?.type === 'view' && (VIEW_ACTIONS.has(actionId) || isFormAction(actionId))) {
          await next();
          return;
        }
        // Anywhere else a click without one is malformed: its listener would have nowhere to answer.
        logger.warn('ignored a malformed button click', {
          problem: 'response_url',
          actionId: actionId.slice(0, 80),
          container: click.data.container?.type ?? '(none)',
        });
        await ack?.();
        return;
      }
      if (!isKnownAction(actionId)) {
        await ack?.();
        logger.warn('a click on an unknown button', { actionId: actionId.slice(0, 80) });
        const { respond } = args as AllMiddlewareArgs & { respond: RespondFn };
        await slack.respond(
          respond,
          { response_type: 'ephemeral', replace_original: false, text: UNSUPPORTED_BUTTON },
          { channelId: click.data.channel?.id, userId: click.data.user.id },
        );
        return;
      }
      await next();
      return;
    }

    if (kind === 'view_submission') {
      const submission = ViewSubmissionBody.safeParse(body);
      const claim = { team: submission.success ? submission.data.user.team_id : undefined };
      if (submission.success && !inside([claim])) {
        refused('dialog', claim);
        await ack?.({ response_action: 'update', view: buildResolveRefusedModal(OUTSIDE_ORGANISATION) });
        return;
      }
      if (submission.success && KNOWN_VIEWS.has(submission.data.view.callback_id)) {
        await next();
        return;
      }
      // A dialog this version does not know (or an altered one): it closes, and nothing changes.
      logger.warn('ignored a dialog submission the bot does not know', {
        problem: submission.success ? 'unknown callback_id' : submission.error.issues[0]?.path.join('.') || '(body)',
      });
      await ack?.();
      return;
    }

    // Events: Bolt acknowledged them already. Only app_home_opened has a listener (the Home tab).
    if (kind === 'event_callback') {
      const event = HomeOpenedEvent.safeParse((body as { event?: unknown }).event);
      const claims = eventClaims(body as Record<string, unknown>);
      if (event.success && !inside(claims)) {
        // Bolt acknowledged the event already; nothing is published for them.
        refused('home tab', claims.find((claim) => !isFromInstallingOrg(installingOrg(), claim)) ?? claims[0]!);
        return;
      }
      if (event.success) {
        await next();
        return;
      }
      logger.debug('dropped a Slack event the bot does not handle');
      return;
    }

    if (kind === 'shortcut') {
      const shortcut = ShortcutBody.safeParse(body);
      const claim = { team: shortcut.success ? shortcut.data.user.team_id : undefined };
      if (shortcut.success && !inside([claim])) {
        // A shortcut has no response_url: nothing opens for them, and nothing is posted.
        refused('shortcut', claim);
        await ack?.();
        return;
      }
      if (shortcut.success && KNOWN_SHORTCUTS.has(shortcut.data.callback_id)) {
        await next();
        return;
      }
      logger.warn('ignored a shortcut the bot does not know', {
        problem: shortcut.success ? 'unknown callback_id' : shortcut.error.issues[0]?.path.join('.') || '(body)',
      });
      await ack?.();
      return;
    }

    // Message shortcuts, other views and anything else: this app has no listener for them. Answer at once.
    // (A message event's text is escaped like a command's: read it with readTypedText here. A modal's input
    // values in `view.state.values` arrive unescaped: use them as they are.)
    logger.debug('acknowledged a Slack request the bot does not handle', {
      type: typeof kind === 'string' ? kind.slice(0, 40) : 'unknown',
    });
    await ack?.();
  };
}
