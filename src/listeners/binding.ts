import type { ListenerBinding } from '../slack/listener-kit.js';
import type { ListenerDeps } from './deps.js';
import type { RequestArgs } from './pipeline.js';

type Handler = (args: RequestArgs) => Promise<void>;

/**
 * The handler of each request, from the bindings table: a command by its name, a click by its action_id, a
 * submitted view by its callback_id, a global shortcut by its callback_id, an event by its type. A request no binding claims reaches no handler (the
 * edge gate has answered clicks on unknown buttons and dialogs it does not know). The tables are built once.
 */
export function createDispatcher(deps: ListenerDeps, bindings: readonly ListenerBinding<ListenerDeps>[]): Handler {
  const byKind = {
    command: lookupTable(),
    action: lookupTable(),
    view: lookupTable(),
    shortcut: lookupTable(),
    event: lookupTable(),
  };
  for (const binding of bindings) byKind[binding.kind].add(binding.id, binding.create(deps) as unknown as Handler);
  return async (args) => {
    const handler = handlerFor(byKind, args);
    if (handler) await handler(args);
  };
}

function handlerFor(
  byKind: Record<ListenerBinding<ListenerDeps>['kind'], LookupTable>,
  args: RequestArgs,
): Handler | undefined {
  const body = args.body as { type?: unknown; command?: unknown };
  if (typeof body.command === 'string') return byKind.command.find(body.command);
  if (body.type === 'block_actions' && 'action' in args) {
    const actionId = (args.action as { action_id?: unknown }).action_id;
    return typeof actionId === 'string' ? byKind.action.find(actionId) : undefined;
  }
  if (body.type === 'view_submission' && 'view' in args) return byKind.view.find(args.view.callback_id);
  if (body.type === 'shortcut' && 'shortcut' in args) return byKind.shortcut.find(args.shortcut.callback_id);
  if (body.type === 'event_callback' && 'event' in args) return byKind.event.find(args.event.type);
  return undefined;
}

type LookupTable = ReturnType<typeof lookupTable>;

/** Ids by exact lookup, patterns in table order; an id claimed twice keeps its first handler. */
function lookupTable() {
  const exact = new Map<string, Handler>();
  const patterns: [RegExp, Handler][] = [];
  return {
    add(id: string | RegExp, handler: Handler): void {
      if (typeof id !== 'string') patterns.push([id, handler]);
      else if (!exact.has(id)) exact.set(id, handler);
    },
    find(id: string): Handler | undefined {
      return exact.get(id) ?? patterns.find(([pattern]) => pattern.test(id))?.[1];
    },
  };
}
