import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ACTION_IDS } from '../../blocks/ids.js';
import type { ListenerBinding } from '../../slack/listener-kit.js';
import type { HomeListenerDeps } from './opened-listener.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** The Home tab's Refresh button: acknowledged, then the person's Home is built again and published. */
function createHomeRefreshListener(deps: HomeListenerDeps) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const home = deps.home;
    const userId = body.user.id;
    deps.background.run('home tab refresh', () => home.publish(userId));
  };
}

/** The Home tab's Refresh button, bound to its handler. */
export const homeRefreshListeners: ListenerBinding<HomeListenerDeps>[] = [
  { kind: 'action', id: ACTION_IDS.homeRefresh, create: createHomeRefreshListener },
];
