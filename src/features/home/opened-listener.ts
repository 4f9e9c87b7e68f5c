import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ListenerBinding, ListenerPlatform } from '../../slack/listener-kit.js';
import type { HomeTab } from './service.js';

/** What the Home tab's listeners use. */
export type HomeListenerDeps = Pick<ListenerPlatform, 'background'> & { home: HomeTab };

type HomeOpenedArgs = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

/**
 * `app_home_opened`: Bolt has acknowledged the event already (Events API requests are acked at once). The Home tab
 * is published in the background, against the hash of the view the event says the person sees. Slack sends the
 * same event when someone opens the Messages tab (the bot's DM): nothing to publish then.
 */
function createHomeOpenedListener(deps: HomeListenerDeps) {
  return async ({ event }: HomeOpenedArgs): Promise<void> => {
    const home = deps.home;
    if (event.tab !== 'home') return;
    const userId = event.user;
    // Slack's View type leaves out the fields Slack adds to a view it holds (id, hash): read the hash as sent.
    const held = event.view as { hash?: unknown } | undefined;
    const shownHash = typeof held?.hash === 'string' ? held.hash : undefined;
    deps.background.run('home tab on open', () => home.opened(userId, shownHash));
  };
}

/** `app_home_opened`, bound to its handler. */
export const homeOpenedListeners: ListenerBinding<HomeListenerDeps>[] = [
  { kind: 'event', id: 'app_home_opened', create: createHomeOpenedListener },
];
