/**
 * What every log line of a request is about: the first gate reads it from the request (command and
 * subcommand, action id, dialog callback id, the quote or alert the click names) and runs the rest of the request,
 * the work it starts after its ack included, inside that log context (logger.ts). Feature code logs as before.
 */
import { ACTION_IDS, VIEW_IDS } from '../blocks/ids.js';
import { parseAlertBlockId } from '../features/alerts/blocks.js';
import { parseStepUpMetadata } from '../features/swaps/step-up.js';
import { type LogContext, withLogContext } from '../logger.js';
import type { RequestGate } from './pipeline.js';

const QUOTE_ACTIONS = new Set<string>([ACTION_IDS.swapApprove, ACTION_IDS.swapReject, ACTION_IDS.swapNewQuote]);
/** Ids we write (UUIDs, alert references) are short and printable; anything else is not copied into the log. */
const PRINTABLE_ID = /^[\x21-\x7e]{1,120}$/;

const short = (value: unknown, max = 80): string | undefined =>
  typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined;
const id = (value: unknown): string | undefined =>
  typeof value === 'string' && PRINTABLE_ID.test(value) ? value : undefined;

/** The context fields of one request body (only what the body says; never typed text beyond the subcommand). */
function requestLogContext(body: unknown): LogContext {
  if (typeof body !== 'object' || body === null) return {};
  const b = body as Record<string, unknown>;
  const fields: Record<string, string | undefined> = {};
  if (typeof b.command === 'string') {
    fields.command = short(b.command, 40);
    // The first word only: what follows may be anything a person typed.
    const word = typeof b.text === 'string' ? /^\s*([A-Za-z0-9_-]{1,30})/.exec(b.text)?.[1] : undefined;
    fields.subcommand = word?.toLowerCase();
  } else if (b.type === 'block_actions' && Array.isArray(b.actions)) {
    const action = b.actions[0] as Record<string, unknown> | undefined;
    const actionId = short(action?.action_id, 100);
    fields.actionId = actionId;
    if (actionId !== undefined && QUOTE_ACTIONS.has(actionId)) fields.quoteId = id(action?.value);
    const block = typeof action?.block_id === 'string' ? parseAlertBlockId(action.block_id) : undefined;
    if (block) fields.alertKey = id(block.ref);
  } else if (b.type === 'view_submission' || b.type === 'view_closed') {
    const view = b.view as Record<string, unknown> | undefined;
    const callbackId = short(view?.callback_id, 100);
    fields.viewCallbackId = callbackId;
    if (callbackId === VIEW_IDS.swapStepUp) fields.quoteId = id(parseStepUpMetadata(view?.private_metadata)?.quoteId);
    if (callbackId === VIEW_IDS.alertResolve) fields.alertKey = id(alertRefOf(view?.private_metadata));
  } else if (b.type === 'event_callback') {
    fields.event = short((b.event as Record<string, unknown> | undefined)?.type, 60);
  }
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function alertRefOf(metadata: unknown): unknown {
  if (typeof metadata !== 'string' || metadata.length > 3_000) return undefined;
  try {
    return (JSON.parse(metadata) as { ref?: unknown }).ref;
  } catch {
    return undefined;
  }
}

/** The gate: the rest of the request runs inside its log context. */
export function logContextGate(): RequestGate {
  // Read from the body only when the lines show it (JSON logs): the text format pays nothing per request.
  return async ({ body }, next) => withLogContext(() => requestLogContext(body), next);
}
