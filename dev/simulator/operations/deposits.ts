// Deposits: read by id; unknown and foreign ids are indistinguishable (empty-body 404).
import { renderDeposit } from '../render.js';
import { type HandlerResult, notFoundEmpty, ok, validationFailed } from '../responses.js';
import { Checker } from '../validation.js';
import type { OperationContext } from './context.js';

/** GET /2.0/deposit/get?id= */
export function getDeposit(context: OperationContext): HandlerResult {
  const checker = new Checker().uuid(context.query.id, 'id');
  if (!checker.ok) return validationFailed(checker.errors);
  const deposit = context.state.owned(context.state.deposits, context.merchantId, String(context.query.id));
  return deposit ? ok(renderDeposit(context.state, deposit)) : notFoundEmpty();
}
