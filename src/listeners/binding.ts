import type {
  AllMiddlewareArgs,
  App,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { ListenerDeps } from './deps.js';

type Listener<Args> = (args: Args & AllMiddlewareArgs) => Promise<void>;

/**
 * One command name, action_id, view callback_id or event bound to the factory of its handler. Each feature's
 * listeners file exports its bindings next to the handlers; listeners/index.ts registers them all. An action's
 * handler reads button clicks (one that reads any block action, such as a select, fits too).
 */
export type ListenerBinding =
  | { kind: 'command'; id: string; create: (deps: ListenerDeps) => Listener<SlackCommandMiddlewareArgs> }
  | {
      kind: 'action';
      id: string | RegExp;
      create: (deps: ListenerDeps) => Listener<SlackActionMiddlewareArgs<BlockButtonAction>>;
    }
  | { kind: 'view'; id: string; create: (deps: ListenerDeps) => Listener<SlackViewMiddlewareArgs<ViewSubmitAction>> }
  | {
      kind: 'event';
      id: 'app_home_opened';
      create: (deps: ListenerDeps) => Listener<SlackEventMiddlewareArgs<'app_home_opened'>>;
    };

/** Registers each binding with Bolt, in the order given. */
export function bindListeners(app: App, deps: ListenerDeps, bindings: readonly ListenerBinding[]): void {
  for (const binding of bindings) {
    switch (binding.kind) {
      case 'command':
        app.command(binding.id, binding.create(deps));
        break;
      case 'action':
        app.action(binding.id, binding.create(deps));
        break;
      case 'view':
        app.view(binding.id, binding.create(deps));
        break;
      case 'event':
        app.event(binding.id, binding.create(deps));
        break;
    }
  }
}
