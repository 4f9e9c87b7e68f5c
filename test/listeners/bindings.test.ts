/** Each action_id, view and event is bound once, next to its handler; listeners/index.ts registers them all. */
import type { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { ACTION_IDS, FORM_IDS, SHORTCUT_IDS, VIEW_IDS } from '../../src/blocks/ids.js';
import type { ListenerDeps } from '../../src/listeners/deps.js';
import { LISTENER_BINDINGS, registerListeners, TREASURY_COMMAND } from '../../src/listeners/index.js';

const matches = (id: string | RegExp, actionId: string) =>
  typeof id === 'string' ? id === actionId : id.test(actionId);

describe('the listener bindings', () => {
  it.each(Object.values(ACTION_IDS))('action_id %s has exactly one handler', (actionId) => {
    const bound = LISTENER_BINDINGS.filter((b) => b.kind === 'action' && matches(b.id, actionId));
    expect(bound).toHaveLength(1);
  });

  it('binds no action the builders do not use', () => {
    const ids = Object.values(ACTION_IDS) as string[];
    for (const binding of LISTENER_BINDINGS.filter((b) => b.kind === 'action')) {
      expect(
        ids.some((actionId) => matches(binding.id, actionId)),
        String(binding.id),
      ).toBe(true);
    }
  });

  it('binds /treasury, the Resolve dialog, the code dialog, the second factor reset picker and app_home_opened once each', () => {
    const of = (kind: string, id: string) => LISTENER_BINDINGS.filter((b) => b.kind === kind && b.id === id);
    expect(of('command', TREASURY_COMMAND)).toHaveLength(1);
    expect(of('view', VIEW_IDS.alertResolve)).toHaveLength(1);
    expect(of('view', VIEW_IDS.swapStepUp)).toHaveLength(1);
    expect(of('view', VIEW_IDS.secondFactorReset)).toHaveLength(1);
    expect(of('event', 'app_home_opened')).toHaveLength(1);
    expect(LISTENER_BINDINGS.filter((b) => b.kind !== 'action')).toHaveLength(
      5 + Object.values(FORM_IDS).length + Object.values(SHORTCUT_IDS).length,
    );
  });

  it('binds each form’s submission and each global shortcut the manifests declare once', () => {
    for (const id of Object.values(FORM_IDS))
      expect(LISTENER_BINDINGS.filter((b) => b.kind === 'view' && b.id === id)).toHaveLength(1);
    for (const id of Object.values(SHORTCUT_IDS))
      expect(LISTENER_BINDINGS.filter((b) => b.kind === 'shortcut' && b.id === id)).toHaveLength(1);
  });

  it('registers the four middleware first (the log context, then the three gates), then every binding in table order', () => {
    const calls: string[] = [];
    const record =
      (method: string) =>
      (id?: unknown): void => {
        calls.push(method === 'use' ? 'use' : `${method} ${String(id)}`);
      };
    const app = {
      use: record('use'),
      command: record('command'),
      action: record('action'),
      view: record('view'),
      shortcut: record('shortcut'),
      event: record('event'),
    };
    const deps = { background: {}, logger: {}, slack: {}, installingOrg: () => undefined } as unknown as ListenerDeps;
    registerListeners(app as unknown as App, deps);
    expect(calls).toEqual(['use', 'use', 'use', 'use', ...LISTENER_BINDINGS.map((b) => `${b.kind} ${String(b.id)}`)]);
  });
});
