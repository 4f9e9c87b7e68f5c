import type { App } from '@slack/bolt';
import type { ListenerBinding } from '../features/listener-kit.js';
import type { ListenerDeps } from './deps.js';

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
      case 'shortcut':
        app.shortcut(binding.id, binding.create(deps));
        break;
      case 'event':
        app.event(binding.id, binding.create(deps));
        break;
    }
  }
}
