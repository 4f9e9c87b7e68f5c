import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../../listeners/deps.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** The Home tab's Refresh button: acknowledged, then the person's Home is built again and published. */
export function createHomeRefreshListener(deps: ListenerDeps) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const home = deps.home;
    const userId = body.user.id;
    if (home) deps.background.run('home tab refresh', () => home.publish(userId));
  };
}
