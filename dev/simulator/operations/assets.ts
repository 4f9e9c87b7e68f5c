// Merchant assets: single read (with balanceForWithdrawal) and list (without it).
// Amounts (docs/payments-api.md#units): `balance` and `balanceForWithdrawal` are base-unit integer strings, as the
// conventions say for amounts; `balanceInUsd` a two-decimal USD string. See render.ts.
import { renderAsset } from '../render.js';
import { badRequest, type HandlerResult, ok, validationFailed } from '../responses.js';
import { Checker } from '../validation.js';
import type { OperationContext } from './context.js';

/** GET /1.0/merchant/asset?id= */
export function getAsset(context: OperationContext): HandlerResult {
  const checker = new Checker().uuid(context.query.id, 'id');
  if (!checker.ok) return validationFailed(checker.errors);
  const asset = context.state.owned(context.state.assets, context.merchantId, String(context.query.id));
  if (!asset) return badRequest('Asset not found', { errors: [{ field: 'id', messages: ['Asset not found'] }] });
  return ok(renderAsset(context.state, asset, { single: true }));
}

/** GET /1.0/merchant/assets */
export function listAssets(context: OperationContext): HandlerResult {
  const assets = [...context.state.assets.values()]
    .filter((asset) => asset.merchantId === context.merchantId)
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  return ok({ assets: assets.map((asset) => renderAsset(context.state, asset, { single: false })) });
}
