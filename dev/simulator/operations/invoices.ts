// Invoices: create (USD or crypto amount) and read. Unknown or foreign invoice/asset ids give the 400 envelope
// with `Invoice not found` / `Asset not found`, as the real service does.
import { randomUUID } from 'node:crypto';
import { usdCentsOf } from '../money.js';
import { renderInvoice } from '../render.js';
import { badRequest, type HandlerResult, ok, validationFailed } from '../responses.js';
import type { InvoiceRecord } from '../types.js';
import { asObject, Checker, isUnsignedIntegerString } from '../validation.js';
import type { OperationContext } from './context.js';

/** Default lifetime of an invoice when paymentDelayTime is absent (seconds). */
const DEFAULT_PAYMENT_DELAY_SECONDS = 3600;
const MAX_PAYMENT_DELAY_SECONDS = 86_400;

/** Checks the body fields shared by both create operations. */
function checkCommon(checker: Checker, body: Record<string, unknown>): void {
  checker.optionalString(body.productTitle, 'productTitle');
  checker.optionalString(body.extraData, 'extraData', 4000);
  const delay = body.paymentDelayTime;
  if (delay !== undefined) {
    const isInteger = typeof delay === 'number' && Number.isSafeInteger(delay);
    checker.check(!isInteger, 'paymentDelayTime', 'paymentDelayTime must be an integer number');
    checker.check(
      isInteger && delay > MAX_PAYMENT_DELAY_SECONDS,
      'paymentDelayTime',
      'paymentDelayTime must not be greater than 86400',
    );
    checker.check(isInteger && delay < 0, 'paymentDelayTime', 'paymentDelayTime must not be less than 0');
  }
}

function assetNotFound(): HandlerResult {
  return badRequest('Asset not found', { errors: [{ field: 'assetId', messages: ['Asset not found'] }] });
}

function storeInvoice(
  context: OperationContext,
  body: Record<string, unknown>,
  fields: Pick<InvoiceRecord, 'usdCents' | 'assetId' | 'cryptoAmount'>,
): HandlerResult {
  const { state } = context;
  const now = state.now();
  const delay = typeof body.paymentDelayTime === 'number' ? body.paymentDelayTime : DEFAULT_PAYMENT_DELAY_SECONDS;
  const invoice = state.addInvoice({
    id: randomUUID(),
    merchantId: context.merchantId,
    productTitle: typeof body.productTitle === 'string' ? body.productTitle : '',
    extraData: typeof body.extraData === 'string' ? body.extraData : null,
    address: fields.assetId ? state.random.address() : null,
    createdAt: now,
    expiredAt: now + delay * 1000,
    ...fields,
  });
  return ok(renderInvoice(state, invoice));
}

/** POST /2.0/merchant/create-invoice */
export function createInvoice(context: OperationContext): HandlerResult {
  const body = asObject(context.body);
  if (!body) return validationFailed([{ field: 'body', messages: ['body must be a JSON object'] }]);
  const cents = body.usdAmountInCents;
  const checker = new Checker()
    .check(
      !(typeof cents === 'number' && Number.isSafeInteger(cents) && cents > 0),
      'usdAmountInCents',
      'usdAmountInCents must be a positive integer',
    )
    .uuid(body.assetId, 'assetId', false);
  checkCommon(checker, body);
  if (!checker.ok) return validationFailed(checker.errors);
  const assetId = typeof body.assetId === 'string' ? body.assetId : null;
  if (assetId && !context.state.owned(context.state.assets, context.merchantId, assetId)) return assetNotFound();
  // addInvoice prices the crypto amount from the USD amount when an asset is chosen.
  return storeInvoice(context, body, { usdCents: String(cents), assetId, cryptoAmount: null });
}

/** POST /2.0/merchant/create-invoice-by-crypto */
export function createInvoiceByCrypto(context: OperationContext): HandlerResult {
  const body = asObject(context.body);
  if (!body) return validationFailed([{ field: 'body', messages: ['body must be a JSON object'] }]);
  const amount = body.cryptoAmount;
  const checker = new Checker()
    .check(
      !isUnsignedIntegerString(amount) || BigInt(amount) === 0n,
      'cryptoAmount',
      'cryptoAmount must be an unsigned integer string greater than 0',
    )
    .uuid(body.assetId, 'assetId');
  checkCommon(checker, body);
  if (!checker.ok) return validationFailed(checker.errors);
  const { state } = context;
  const asset = state.owned(state.assets, context.merchantId, String(body.assetId));
  if (!asset) return assetNotFound();
  const crypto = state.crypto(asset.cryptoId);
  const cryptoAmount = BigInt(String(amount));
  const usdCents = usdCentsOf(cryptoAmount, crypto.decimals, crypto.priceUsd);
  return storeInvoice(context, body, {
    usdCents: usdCents.toString(),
    assetId: asset.id,
    cryptoAmount: cryptoAmount.toString(),
  });
}

/** GET /1.0/merchant/invoice-info?id= */
export function getInvoice(context: OperationContext): HandlerResult {
  const checker = new Checker().uuid(context.query.id, 'id');
  if (!checker.ok) return validationFailed(checker.errors);
  const invoice = context.state.owned(context.state.invoices, context.merchantId, String(context.query.id));
  if (!invoice) return badRequest('Invoice not found', { errors: [{ field: 'id', messages: ['Invoice not found'] }] });
  return ok(renderInvoice(context.state, invoice));
}
