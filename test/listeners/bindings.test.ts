/** Each action_id, view and event is bound once, next to its handler; one dispatcher behind one Bolt middleware routes to them. */
import type { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { ACTION_IDS, FORM_IDS, SHORTCUT_IDS, VIEW_IDS } from '../../src/blocks/ids.js';
import { createDispatcher } from '../../src/listeners/binding.js';
import type { ListenerDeps } from '../../src/listeners/deps.js';
import { LISTENER_BINDINGS, registerListeners, requestGates, TREASURY_COMMAND } from '../../src/listeners/index.js';
import { type RequestArgs, type RequestGate, requestPipeline } from '../../src/listeners/pipeline.js';
import type { ListenerBinding } from '../../src/slack/listener-kit.js';

const deps = { background: {}, logger: {}, slack: {}, installingOrg: () => undefined } as unknown as ListenerDeps;

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

  it('registers one Bolt middleware and no Bolt listener: the pipeline runs the four gates, then the dispatcher', () => {
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
      event: record('event'),
      shortcut: record('shortcut'),
      options: record('options'),
      message: record('message'),
    };
    registerListeners(app as unknown as App, deps);
    expect(calls).toEqual(['use']);
    expect(requestGates(deps)).toHaveLength(4);
  });

  it('dispatches each command, click, dialog and event to the one binding that claims it', async () => {
    const handled: ListenerBinding<ListenerDeps>[] = [];
    const recorders = LISTENER_BINDINGS.map(
      (binding) =>
        ({ ...binding, create: () => async () => void handled.push(binding) }) as ListenerBinding<ListenerDeps>,
    );
    const dispatch = createDispatcher(deps, recorders);
    const requests: [RequestArgs, (b: ListenerBinding<ListenerDeps>) => boolean][] = [
      [
        { body: { command: TREASURY_COMMAND }, command: { command: TREASURY_COMMAND } } as unknown as RequestArgs,
        (b) => b.kind === 'command' && b.id === TREASURY_COMMAND,
      ],
      [
        { body: { type: 'event_callback' }, event: { type: 'app_home_opened' } } as unknown as RequestArgs,
        (b) => b.kind === 'event' && b.id === 'app_home_opened',
      ],
      ...Object.values(SHORTCUT_IDS).map(
        (id) =>
          [
            { body: { type: 'shortcut', callback_id: id }, shortcut: { callback_id: id } } as unknown as RequestArgs,
            (b: ListenerBinding<ListenerDeps>) => b.kind === 'shortcut' && b.id === id,
          ] as [RequestArgs, (b: ListenerBinding<ListenerDeps>) => boolean],
      ),
      ...[...Object.values(VIEW_IDS), ...Object.values(FORM_IDS)]
        .filter((id) => LISTENER_BINDINGS.some((b) => b.kind === 'view' && b.id === id))
        .map(
          (id) =>
            [
              { body: { type: 'view_submission' }, view: { callback_id: id } } as unknown as RequestArgs,
              (b: ListenerBinding<ListenerDeps>) => b.kind === 'view' && b.id === id,
            ] as [RequestArgs, (b: ListenerBinding<ListenerDeps>) => boolean],
        ),
      ...Object.values(ACTION_IDS).map(
        (id) =>
          [
            { body: { type: 'block_actions' }, action: { action_id: id } } as unknown as RequestArgs,
            (b: ListenerBinding<ListenerDeps>) => b.kind === 'action' && matches(b.id, id),
          ] as [RequestArgs, (b: ListenerBinding<ListenerDeps>) => boolean],
      ),
    ];
    expect(requests.length).toBeGreaterThan(10);
    for (const [args, claims] of requests) {
      handled.length = 0;
      await dispatch(args);
      expect(handled).toHaveLength(1);
      expect(claims(handled[0]!), JSON.stringify(args.body)).toBe(true);
    }
  });

  it('dispatches nothing for what no binding claims: an unknown action_id, a view_closed, a shortcut, another event', async () => {
    const handled: ListenerBinding<ListenerDeps>[] = [];
    const recorders = LISTENER_BINDINGS.map(
      (binding) =>
        ({ ...binding, create: () => async () => void handled.push(binding) }) as ListenerBinding<ListenerDeps>,
    );
    const dispatch = createDispatcher(deps, recorders);
    for (const args of [
      { body: { type: 'block_actions' }, action: { action_id: 'nobody_binds_this' } },
      { body: { type: 'view_closed' }, view: { callback_id: VIEW_IDS.alertResolve } },
      { body: { type: 'shortcut', callback_id: 'x' }, shortcut: { callback_id: 'x' } },
      { body: { type: 'message_action', callback_id: 'x' }, shortcut: { callback_id: 'x' } },
      { body: { type: 'event_callback' }, event: { type: 'message' } },
      { body: { command: '/other' }, command: { command: '/other' } },
    ])
      await dispatch(args as unknown as RequestArgs);
    expect(handled).toEqual([]);
  });
});

describe('the request pipeline', () => {
  const args = { body: {} } as unknown as RequestArgs;

  it('runs the gates in order, then the handler, each inside the one before it', async () => {
    const steps: string[] = [];
    const gate =
      (name: string): RequestGate =>
      async (_args, next) => {
        steps.push(`${name} in`);
        await next();
        steps.push(`${name} out`);
      };
    await requestPipeline([gate('a'), gate('b')], async () => void steps.push('handler'))(args as never);
    expect(steps).toEqual(['a in', 'b in', 'handler', 'b out', 'a out']);
  });

  it('stops at a gate that answers without next(), and refuses a second next()', async () => {
    const steps: string[] = [];
    const stop: RequestGate = async () => void steps.push('answered');
    await requestPipeline([stop], async () => void steps.push('handler'))(args as never);
    expect(steps).toEqual(['answered']);
    const twice: RequestGate = async (_args, next) => {
      await next();
      await next();
    };
    await expect(requestPipeline([twice], async () => undefined)(args as never)).rejects.toThrow(/twice/);
  });
});
