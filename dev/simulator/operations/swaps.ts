// Swaps: estimate (quote, 30 minutes, single use), create from an estimate, read. Business errors use the exact
// messages of docs/payments-api.md#swaps, checked in the order of its table.
import { randomUUID } from 'node:crypto';
import { convertBaseUnits, minusBps, parseUnits, usdCentsOf } from '../money.js';
import { availableBalance, renderEstimate, renderSwap } from '../render.js';
import { badRequest, type HandlerResult, notFoundEmpty, ok, validationFailed } from '../responses.js';
import type { AssetRecord } from '../types.js';
import { asObject, Checker, isUnsignedIntegerString } from '../validation.js';
import { ESTIMATE_TTL_MS, type SimState } from '../world.js';
import type { OperationContext } from './context.js';

/** Swap business errors carry no statusCode (docs/payments-api.md#errors: it is present only in some responses). */
const swapError = (message: string): HandlerResult => badRequest(message, { statusCode: false });

/** Amount of the target asset (base units) a swap of `amount` source base units yields: USD prices minus the spread. */
export function quoteAmount(state: SimState, from: AssetRecord, to: AssetRecord, amount: bigint): bigint {
  const source = state.crypto(from.cryptoId);
  const target = state.crypto(to.cryptoId);
  const routeType = source.networkId === target.networkId ? 'dex' : 'cex';
  const converted = convertBaseUnits(
    amount,
    { decimals: source.decimals, price: source.priceUsd },
    { decimals: target.decimals, price: target.priceUsd },
  );
  return minusBps(converted, state.swapConfig.spreadBps[routeType]);
}

/** POST /2.0/swap/estimate */
export function estimateSwap(context: OperationContext): HandlerResult {
  const body = asObject(context.body);
  if (!body) return validationFailed([{ field: 'body', messages: ['body must be a JSON object'] }]);
  const checker = new Checker()
    .uuid(body.assetIdFrom, 'assetIdFrom')
    .uuid(body.assetIdTo, 'assetIdTo')
    .check(
      !isUnsignedIntegerString(body.amount) || BigInt(body.amount) === 0n,
      'amount',
      'amount must be a positive integer string',
    );
  if (!checker.ok) return validationFailed(checker.errors);

  const { state, merchantId } = context;
  const from = state.owned(state.assets, merchantId, String(body.assetIdFrom));
  if (!from) return swapError('Asset from not found');
  const to = state.owned(state.assets, merchantId, String(body.assetIdTo));
  if (!to) return swapError('Asset to not found');
  const source = state.assetCurrency(from);
  const target = state.assetCurrency(to);
  if (!source.crypto.swapEnabled) return swapError('Unsupported source currency');
  if (!target.crypto.swapEnabled) return swapError('Unsupported target currency');
  if (target.crypto.contractAddress === null) return swapError('Native currency not supported as target');
  if (!source.network.swapEnabled) return swapError('Unsupported source network');
  if (!target.network.swapEnabled) return swapError('Unsupported target network');

  const amount = BigInt(String(body.amount));
  if (amount < parseUnits(source.crypto.minSwap, source.crypto.decimals)) {
    return swapError(`Min swap amount is ${source.crypto.minSwap} ${source.crypto.symbol}`);
  }
  const config = state.swapConfig;
  const sameCrypto = source.crypto.id === target.crypto.id;
  const usdCents = usdCentsOf(amount, source.crypto.decimals, source.crypto.priceUsd);
  if (
    sameCrypto ||
    config.noRoutePairs.has(`${source.crypto.id}>${target.crypto.id}`) ||
    usdCents > config.liquidityCapUsdCents
  ) {
    return swapError('No route found');
  }
  const routeType = source.network.id === target.network.id ? 'dex' : 'cex';
  const serviceId =
    routeType === 'dex' ? (config.dexServiceIds.get(source.network.id) ?? 'dex_aggregator') : config.cexServiceId;
  const estimatedAmount = quoteAmount(state, from, to, amount);
  if (estimatedAmount <= 0n) return swapError('No route found');

  const estimate = {
    id: randomUUID(),
    merchantId,
    assetIdFrom: from.id,
    assetIdTo: to.id,
    amount: amount.toString(),
    estimatedAmount: estimatedAmount.toString(),
    routeType,
    serviceId,
    createdAt: state.now(),
    used: false,
  } as const;
  state.estimates.set(estimate.id, { ...estimate });
  return ok(renderEstimate(estimate));
}

/** POST /2.0/swap/create */
export function createSwap(context: OperationContext): HandlerResult {
  const body = asObject(context.body);
  if (!body) return validationFailed([{ field: 'body', messages: ['body must be a JSON object'] }]);
  const checker = new Checker().uuid(body.estimateId, 'estimateId');
  if (!checker.ok) return validationFailed(checker.errors);

  const { state, merchantId } = context;
  const estimate = state.owned(state.estimates, merchantId, String(body.estimateId));
  if (!estimate || estimate.used || state.now() - estimate.createdAt > ESTIMATE_TTL_MS) {
    return swapError('Estimate not found');
  }
  const from = state.asset(estimate.assetIdFrom);
  const amount = BigInt(estimate.amount);
  // A failed balance check leaves the estimate usable (the merchant may top up and retry within 30 minutes).
  if (availableBalance(from) < amount) return swapError('Balance not enough');

  estimate.used = true;
  from.balance = (BigInt(from.balance) - amount).toString();
  const swap = state.addSwap({
    id: randomUUID(),
    merchantId,
    assetIdFrom: estimate.assetIdFrom,
    assetIdTo: estimate.assetIdTo,
    amountFrom: estimate.amount,
    estimatedAmount: estimate.estimatedAmount,
    routeType: estimate.routeType,
    status: 'new',
    createdAt: state.now(),
    autoAdvance: true,
  });
  return ok(renderSwap(state, swap, { withFee: false }));
}

/** GET /2.0/swap/get?id= */
export function getSwap(context: OperationContext): HandlerResult {
  const checker = new Checker().uuid(context.query.id, 'id');
  if (!checker.ok) return validationFailed(checker.errors);
  const swap = context.state.owned(context.state.swaps, context.merchantId, String(context.query.id));
  return swap ? ok(renderSwap(context.state, swap, { withFee: true })) : notFoundEmpty();
}
