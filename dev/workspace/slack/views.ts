import { randomBytes } from 'node:crypto';
import { describeProblem, HOME_LIMITS, validateHomeView, validateModalView } from '../block-kit-validation.js';
import type { SlackState } from './state.js';
import type { ApiAnswer, Args, MethodHandler, OpenedView, PublishedHome, StandInEvent } from './types.js';
import { asString, isRecord } from './values.js';

// "views.open": a trigger_id is good for 3 seconds, once.
const TRIGGER_LIFETIME_MS = 3000;
const HOME_RATE_WINDOW_MS = 60_000;

/** views.open, views.update (modals) and views.publish (Home tabs), as strict as Slack. */
export function viewsMethods(state: SlackState): Record<string, MethodHandler> {
  const { options, clock } = state;
  const newHash = () => `${Math.floor(clock() / 1000)}.${randomBytes(6).toString('hex')}`;
  const viewObject = (opened: OpenedView) => ({
    ...opened.view,
    id: opened.id,
    team_id: state.teamId,
    hash: opened.hash,
    state: { values: {} },
  });
  // A Home view as Slack answers it (and as app_home_opened and a click in it carry it).
  const homeViewObject = (home: PublishedHome) => ({
    id: home.id,
    team_id: state.teamId,
    type: 'home',
    close: null,
    submit: null,
    blocks: Array.isArray(home.view.blocks) ? home.view.blocks : [],
    private_metadata: asString(home.view.private_metadata) ?? '',
    callback_id: asString(home.view.callback_id) ?? '',
    state: { values: {} },
    hash: home.hash,
    clear_on_close: false,
    notify_on_close: false,
    root_view_id: home.id,
    previous_view_id: null,
    app_id: options.appId ?? 'A_TEST',
    external_id: asString(home.view.external_id) ?? '',
    bot_id: state.botId,
  });

  return {
    // views.open: the trigger must be one Slack issued (its issue time leads it), at most 3 s old and unused;
    // the view must be a valid modal. Errors as Slack names them.
    'views.open': (args) => {
      const triggerId = asString(args.trigger_id) ?? '';
      const issuedAt = Number(/^(\d{13})\.\d+\.[0-9a-f]+$/.exec(triggerId)?.[1] ?? Number.NaN);
      if (Number.isNaN(issuedAt)) return { ok: false, error: 'invalid_trigger_id' };
      if (state.exchangedTriggers.has(triggerId)) return { ok: false, error: 'exchanged_trigger_id' };
      if (clock() - issuedAt > TRIGGER_LIFETIME_MS) return { ok: false, error: 'expired_trigger_id' };
      const refused = refuseView(args.view);
      if (refused) return refused;
      state.exchangedTriggers.add(triggerId);
      const view = args.view as Record<string, unknown>;
      const opened: OpenedView = {
        id: `V${randomBytes(5).toString('hex').toUpperCase()}`,
        triggerId,
        view,
        hash: newHash(),
        openedAt: clock(),
      };
      state.openedViews.push(opened);
      state.changed();
      state.emit(viewEvent('opened', opened));
      return { ok: true, view: viewObject(opened) };
    },
    // views.update: by view_id; with a hash, only if the view has not changed since (hash_conflict otherwise).
    'views.update': (args) => {
      const opened = state.openedViews.find((candidate) => candidate.id === asString(args.view_id));
      if (!opened) return { ok: false, error: 'not_found' };
      const hash = asString(args.hash);
      if (hash !== undefined && hash !== opened.hash) return { ok: false, error: 'hash_conflict' };
      const refused = refuseView(args.view);
      if (refused) return refused;
      opened.view = args.view as Record<string, unknown>;
      opened.hash = newHash();
      state.changed();
      state.emit(viewEvent('updated', opened));
      return { ok: true, view: viewObject(opened) };
    },
    /*
     * views.publish (the method's reference): `user_id` and `view` are required; a user the workspace does not have
     * answers `invalid_arguments` ("invalid `user_id`"), a Home tab the app has not enabled `not_enabled`, a view
     * over 250 kB `view_too_large`, and a `hash` that is not the one of the person's current Home `hash_conflict`
     * ("the provided hash doesn't match the current stored value"). The view is held to a Home tab's rules
     * (validateHomeView). The answer is the view with Slack's fields and a new hash; the person's Home id stays.
     */
    'views.publish': (args) => {
      const userId = asString(args.user_id) ?? '';
      if (userId === '' || !state.isPerson(userId))
        return { ok: false, error: 'invalid_arguments', response_metadata: { messages: ['invalid `user_id`'] } };
      if (args.view === undefined)
        return {
          ok: false,
          error: 'invalid_arguments',
          response_metadata: { messages: ['[ERROR] missing required field: view'] },
        };
      if (isRecord(args.view) && args.view.type === 'home' && !(options.homeTabEnabled ?? true))
        return { ok: false, error: 'not_enabled' };
      const problems = validateHomeView(args.view);
      if (problems.length > 0) {
        const messages = problems.map((problem) => `[ERROR] ${describeProblem(problem)}`);
        state.reject('views.publish', { error: 'invalid_arguments', problems });
        return { ok: false, error: 'invalid_arguments', response_metadata: { messages } };
      }
      const view = args.view as Record<string, unknown>;
      if (Buffer.byteLength(JSON.stringify(view)) > HOME_LIMITS.viewBytes)
        return { ok: false, error: 'view_too_large' };
      const current = state.homes.get(userId);
      const hash = asString(args.hash);
      if (hash !== undefined && hash !== current?.hash) return { ok: false, error: 'hash_conflict' };
      const published: PublishedHome = {
        id: current?.id ?? `V${randomBytes(5).toString('hex').toUpperCase()}`,
        user: userId,
        view: structuredClone(view),
        hash: newHash(),
        publishedAt: clock(),
      };
      state.homes.set(userId, published);
      state.changed();
      state.emit({ type: 'home', user: userId, id: published.id, view: structuredClone(view), hash: published.hash });
      return { ok: true, view: homeViewObject(published) };
    },
  };
}

/**
 * Slack rates views.publish per person on top of its Tier 4 budget: past the burst (homePublishesPerMinute, 30 unless
 * set) it answers 429 `ratelimited`. Records this call and says how many seconds to wait when it is past the burst.
 */
export function homeRateLimited(state: SlackState, args: Args): number | undefined {
  const userId = asString(args.user_id);
  if (userId === undefined) return undefined;
  const at = state.clock();
  const recent = (state.homePublishes.get(userId) ?? []).filter((t) => at - t < HOME_RATE_WINDOW_MS);
  if (recent.length >= (state.options.homePublishesPerMinute ?? 30)) {
    state.homePublishes.set(userId, recent);
    return Math.max(1, Math.ceil((recent[0]! + HOME_RATE_WINDOW_MS - at) / 1000));
  }
  recent.push(at);
  state.homePublishes.set(userId, recent);
  return undefined;
}

function refuseView(view: unknown): ApiAnswer | undefined {
  const problems = validateModalView(view);
  if (problems.length === 0) return undefined;
  const messages = problems.map((problem) => `[ERROR] ${describeProblem(problem)}`);
  return { ok: false, error: 'invalid_arguments', response_metadata: { messages } };
}

function viewEvent(change: 'opened' | 'updated', opened: OpenedView): StandInEvent {
  return {
    type: 'view',
    change,
    id: opened.id,
    triggerId: opened.triggerId,
    view: structuredClone(opened.view),
    hash: opened.hash,
  };
}
