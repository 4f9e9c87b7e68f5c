/**
 * What each `/treasury` read or invoice command does: call the payment API, pick the builder. Slack-free:
 * these return messages, and the listeners deliver them.
 */

import type { SlackMessage } from '../../blocks/common.js';
import type { GasPageValue, PayoutsPageValue, ShareableKind } from '../../blocks/ids.js';
import type { RecordViewOptions } from '../../blocks/share.js';
import { parseTokenAmount, parseUsdAmount } from '../../kernel/amounts.js';
import { assetReference, looksLikeAssetReference, readsLikeCurrency, resolveAsset } from '../../kernel/asset-names.js';
import { describeAssetProblem } from '../../kernel/asset-problems.js';
import { UserFacingError } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/ids.js';
import { UsageError } from '../../kernel/usage-error.js';
import { type Asset, type Invoice, type PaymentsClient, PaymentsNotFoundError } from '../../payments/index.js';
import { buildInvoice } from '../invoices/blocks.js';
import { buildPayoutTask, buildPayoutTaskList } from '../payouts/blocks.js';
import { buildAssetDetail, buildBalances } from './balance-blocks.js';
import { buildDeposit } from './deposit-blocks.js';
import { buildGasList } from './gas-blocks.js';
import { INVOICE_CRYPTO_SYNTAX, INVOICE_USD_SYNTAX, PAYOUTS_SYNTAX } from './syntax.js';
import { buildWithdrawal, buildWithdrawalPage, WITHDRAWALS_PER_PAGE } from './withdrawal-blocks.js';

/** Options of `invoice` (parsed by src/commands/invoice-options.ts). */
export interface InvoiceOptions {
  /** paymentDelayTime in seconds. */
  expiresInSeconds?: number;
  /** `--asset`: the predefined asset of a USD invoice. */
  asset?: string;
  /** `--data`: extraData. */
  data?: string;
}

/** What the features need: the API client and the clock. */
export interface FeatureDeps {
  payments: PaymentsClient;
  now: () => Date;
}

/** Turns the API's 404 into a sentence naming what was not found. */
async function orNotFound<T>(call: Promise<T>, what: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof PaymentsNotFoundError) throw new UserFacingError(`No such ${what} for this merchant.`);
    throw error;
  }
}

async function findAsset(deps: FeatureDeps, reference: string, assets?: readonly Asset[]): Promise<Asset> {
  const resolution = resolveAsset(assets ?? (await deps.payments.listAssets()), reference);
  if (!resolution.ok) throw new UserFacingError(describeAssetProblem(resolution));
  return resolution.asset;
}

/** `balances`. */
export async function showBalances(deps: FeatureDeps): Promise<SlackMessage> {
  return buildBalances(await deps.payments.listAssets(), deps.now());
}

/** `balance <asset>`: resolved against the list, then read alone for `balanceForWithdrawal`. */
export async function showBalance(deps: FeatureDeps, reference: string): Promise<SlackMessage> {
  const asset = await findAsset(deps, reference);
  return buildAssetDetail(await orNotFound(deps.payments.getAsset(asset.id), 'asset'), deps.now());
}

/**
 * `invoice <amount> …`: a USD invoice (`$49.99`, `49.99 usd`, or a plain number followed by a title), or a
 * crypto invoice when the word after the amount names an asset. A plain number followed by a word that reads like
 * a currency the merchant does not hold (`0.05 BTC`) is refused, never taken as dollars. The amount is checked before anything is
 * created; a create is never retried. With `follow` (the poller runs), the new invoice is followed until it leaves
 * pending and the reply says its creator will hear; `follow` answers false when it could not be recorded.
 */
export async function createInvoice(
  deps: FeatureDeps,
  amountText: string,
  words: string[],
  options: InvoiceOptions,
  follow?: (invoice: Invoice) => Promise<boolean>,
): Promise<SlackMessage> {
  const created = async (invoice: Invoice) =>
    buildInvoice(invoice, {
      now: deps.now(),
      mode: 'created',
      shareable: true,
      followed: follow ? await follow(invoice) : false,
    });
  const explicitUsd = /^(us)?\$/i.test(amountText) || /usd$/i.test(amountText) || words[0]?.toLowerCase() === 'usd';
  // Refuse junk, negative, zero and exponent amounts before any API call (token decimals are checked once
  // the asset is known).
  if (explicitUsd) parseUsdAmount(amountText);
  else parseTokenAmount(amountText, 36);
  const common = { extraData: options.data, paymentDelayTime: options.expiresInSeconds };
  const titleOf = (rest: string[]) => (rest.length > 0 ? rest.join(' ') : undefined);

  let assets: Asset[] | undefined;
  if (!explicitUsd && words.length > 0) {
    assets = await deps.payments.listAssets();
    if (looksLikeAssetReference(assets, words[0]!)) {
      if (options.asset)
        throw new UsageError(
          '--asset is for USD invoices; this invoice already names its asset.',
          INVOICE_CRYPTO_SYNTAX,
        );
      const asset = await findAsset(deps, words[0]!, assets);
      const cryptoAmount = parseTokenAmount(amountText, asset.crypto.decimals, { symbol: asset.crypto.symbol });
      const invoice = await deps.payments.createInvoiceByCrypto({
        ...common,
        productTitle: titleOf(words.slice(1)),
        assetId: asset.id,
        cryptoAmount,
      });
      return created(invoice);
    }
    if (readsLikeCurrency(words[0]!)) throw notAnAssetOfThisMerchant(amountText, words, assets);
  }

  const rest = words[0]?.toLowerCase() === 'usd' ? words.slice(1) : words;
  const cents = parseUsdAmount(amountText);
  const predefinedAsset = options.asset ? await findAsset(deps, options.asset, assets) : undefined;
  const invoice = await deps.payments.createInvoice({
    ...common,
    productTitle: titleOf(rest),
    usdAmountInCents: cents,
    assetId: predefinedAsset?.id,
  });
  return created(invoice);
}

/**
 * The refusal for `invoice 0.05 BTC Consulting` on a merchant without BTC: the word reads like a currency, so the
 * amount is not taken as US dollars (that would be a guess with money). It names the merchant's assets and shows
 * both ways to say what was meant.
 */
function notAnAssetOfThisMerchant(amountText: string, words: string[], assets: readonly Asset[]): UsageError {
  const word = words[0]!;
  const title = words.slice(1).join(' ');
  const titled = (head: string) => `\`invoice ${[head, title].filter(Boolean).join(' ')}\``;
  const references = assets.map(assetReference);
  const usd = `For a USD invoice, put a $ before the amount: ${titled(`$${amountText}`)}.`;
  if (references.length === 0)
    return new UsageError(
      `"${word}" reads like a currency, but this merchant has no assets enabled, so no invoice was made. ${usd}`,
      INVOICE_USD_SYNTAX,
    );
  return new UsageError(
    `"${word}" is not one of this merchant's assets, so no invoice was made. ` +
      `Its assets: ${references.join(', ')} (e.g. ${titled(`${amountText} ${references[0]}`)}). ${usd}`,
    INVOICE_CRYPTO_SYNTAX,
  );
}

/** `invoice <id>`. */
export async function showInvoice(
  deps: FeatureDeps,
  id: string,
  view: RecordViewOptions = { shareable: true },
): Promise<SlackMessage> {
  const invoice = await orNotFound(deps.payments.getInvoice(id), 'invoice');
  return buildInvoice(invoice, { ...view, now: deps.now(), mode: 'lookup' });
}

/** `withdrawals [page]`. */
export async function showWithdrawals(deps: FeatureDeps, page: number): Promise<SlackMessage> {
  return buildWithdrawalPage(await deps.payments.listWithdrawals({ page, perPage: WITHDRAWALS_PER_PAGE }), deps.now());
}

/** `withdrawal <id>`. */
export async function showWithdrawal(
  deps: FeatureDeps,
  id: string,
  view: RecordViewOptions = { shareable: true },
): Promise<SlackMessage> {
  return buildWithdrawal(await orNotFound(deps.payments.getWithdrawal(id), 'withdrawal'), view);
}

/**
 * `payouts [status] [asset] [payout-id]`: resolves the asset filter, then shows the first slice. A UUID typed there
 * is a payout id, unless it is the id of one of the merchant's assets (`<asset>` may be an asset id).
 */
export async function startPayoutTaskList(
  deps: FeatureDeps,
  status: PayoutsPageValue['status'],
  assetReferenceText: string | undefined,
  payoutIdText?: string,
): Promise<SlackMessage> {
  let assetText = assetReferenceText;
  let payoutId = payoutIdText;
  let assets: Asset[] | undefined;
  if (payoutId !== undefined) {
    assets = await deps.payments.listAssets();
    const isAssetId = (text: string | undefined) => assets!.some((a) => a.id.toLowerCase() === text?.toLowerCase());
    if (isAssetId(payoutId) && !isAssetId(assetText)) [assetText, payoutId] = [payoutId, assetText];
    if (payoutId !== undefined && !isUuid(payoutId))
      throw new UsageError(`"${payoutId}" is not a payout id.`, PAYOUTS_SYNTAX);
  }
  const asset = assetText ? await findAsset(deps, assetText, assets) : undefined;
  return showPayoutTasks(
    deps,
    { status, assetId: asset?.id, ...(payoutId ? { payoutId: payoutId.toLowerCase() } : {}), cursor: null, offset: 0 },
    asset ? assetReference(asset) : undefined,
  );
}

/** A slice of the payout task list, from the state a "Next page" button carries. */
export async function showPayoutTasks(
  deps: FeatureDeps,
  state: PayoutsPageValue,
  assetLabel?: string,
): Promise<SlackMessage> {
  const page = await deps.payments.listPayoutTasks({
    status: state.status,
    assetId: state.assetId,
    payoutId: state.payoutId,
    cursor: state.cursor,
  });
  const label = [
    state.payoutId ? `payout ${state.payoutId}` : undefined,
    state.status,
    assetLabel ?? (state.assetId ? 'one asset' : undefined),
  ]
    .filter(Boolean)
    .join(' · ');
  return buildPayoutTaskList(page, state, label);
}

/** `task <id>`. */
export async function showPayoutTask(
  deps: FeatureDeps,
  id: string,
  view: RecordViewOptions = { shareable: true },
): Promise<SlackMessage> {
  return buildPayoutTask(await orNotFound(deps.payments.getPayoutTask(id), 'payout task'), view);
}

/** `deposit <id>`. */
export async function showDeposit(
  deps: FeatureDeps,
  id: string,
  view: RecordViewOptions = { shareable: true },
): Promise<SlackMessage> {
  return buildDeposit(await orNotFound(deps.payments.getDeposit(id), 'deposit'), view);
}

/** `gas [status]` and its "Next page" button. */
export async function showGas(deps: FeatureDeps, state: GasPageValue): Promise<SlackMessage> {
  const page = await deps.payments.listGasDistributions({ status: state.status, cursor: state.cursor });
  return buildGasList(page, state);
}

/** The channel copy of a record someone shared: fetched again so it is current, without a share button. */
export function showShared(
  deps: FeatureDeps,
  kind: ShareableKind,
  id: string,
  sharedBy: string,
): Promise<SlackMessage> {
  const view = { shareable: false, sharedBy };
  switch (kind) {
    case 'invoice':
      return showInvoice(deps, id, view);
    case 'withdrawal':
      return showWithdrawal(deps, id, view);
    case 'task':
      return showPayoutTask(deps, id, view);
    case 'deposit':
      return showDeposit(deps, id, view);
  }
}
