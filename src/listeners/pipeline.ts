/**
 * How a Slack request travels through the bot: Bolt hands it to ONE global middleware, which runs our gates in
 * order (log context, work in flight, the edge, shutdown) and then the one handler the dispatch table names
 * (binding.ts). Bolt's own listener chains are not used.
 *
 * Why: Bolt runs each registered middleware and every registered listener's matchers on every request, copying
 * the request's arguments into a new object at each step. With a listener per action_id that was most of the
 * bot's CPU on the ack path, and it grew with every button added. Here a request costs one Bolt middleware and a
 * map lookup, however many handlers there are.
 */
import type { AllMiddlewareArgs, AnyMiddlewareArgs, Middleware } from '@slack/bolt';

/** Bolt's arguments of one request, as a gate or a handler reads them (shared, never copied). */
export type RequestArgs = AnyMiddlewareArgs & AllMiddlewareArgs;

/** One step every request passes: calls `next` at most once to let the request go on, or answers it and stops. */
export type RequestGate = (args: RequestArgs, next: () => Promise<void>) => Promise<void>;

/** The one global middleware: the gates in order, then `handle` (the request's handler, if any). */
export function requestPipeline(
  gates: readonly RequestGate[],
  handle: (args: RequestArgs) => Promise<void>,
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const run = async (index: number): Promise<void> => {
      const gate = gates[index];
      if (gate === undefined) return handle(args);
      let called = false;
      return gate(args, () => {
        if (called) throw new Error('a request gate called next() twice');
        called = true;
        return run(index + 1);
      });
    };
    await run(0);
  };
}
