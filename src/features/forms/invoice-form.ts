/**
 * The invoice form: what `/treasury invoice` does, without its syntax. Priced in the asset (a crypto invoice) or in
 * US dollars (the payer may be held to one asset), an amount, and the typed command's options (title, expiry,
 * extra data). The preview shows the amount in base units against the asset's decimals and its USD value; submit
 * runs the typed command's own createInvoice, so its checks, refusals, messages and follow-up are the same.
 */
import { formatNetwork, formatTokenAmount, formatUsd } from '../../blocks/format.js';
import { ACTION_IDS, FORM_IDS } from '../../blocks/ids.js';
import { code } from '../../blocks/mrkdwn.js';
import { formatDuration, parseDuration } from '../../kernel/durations.js';
import { centsToUsd, fromBaseUnits } from '../../kernel/money.js';
import { decodeSlackEntities, escapeText } from '../../kernel/text.js';
import type { Asset } from '../../payments/index.js';
import { createInvoice, type InvoiceOptions } from '../lookups/service.js';
import { quoteValueUsd } from '../swaps/policy-value.js';
import {
  amountInputBlock,
  assetMenuBlock,
  choiceMenuBlock,
  formModal,
  isAssetList,
  previewBlocks,
  textInputBlock,
} from './blocks.js';
import type { FormDefinition, FormState, FormSubmission } from './listeners.js';
import { chosenValue, readTokenAmount, readUsdAmount, typedText } from './values.js';

/** The invoice form's input ids (each its block's id too). */
const INVOICE_FORM = {
  pricing: ACTION_IDS.invoiceFormPricing,
  asset: ACTION_IDS.invoiceFormAsset,
  amount: ACTION_IDS.invoiceFormAmount,
  title: 'form_invoice_title',
  expires: 'form_invoice_expires',
  data: 'form_invoice_data',
} as const;

/** The payment service's longest payment window (paymentDelayTime), as the typed `--expires` allows it. */
const MAX_EXPIRY_SECONDS = 86_400;

type Pricing = 'asset' | 'usd';

/** What the form's fields say now, read and checked exactly (nothing here calls the payment API). */
export interface InvoiceDraft {
  pricing: Pricing;
  asset: Asset | undefined;
  /** Base units of the asset (pricing `asset`) or cents (pricing `usd`); or why not. */
  amount: { empty: true } | { units: bigint } | { refused: string };
  title: string;
  expires: { seconds: number | undefined } | { refused: string };
  data: string;
}

/** Reads the form's fields against the merchant's assets. */
function readInvoiceDraft(values: FormState['values'], assets: readonly Asset[]): InvoiceDraft {
  const pricing: Pricing = chosenValue(values, INVOICE_FORM.pricing) === 'usd' ? 'usd' : 'asset';
  const chosen = chosenValue(values, INVOICE_FORM.asset);
  const asset = assets.find((candidate) => candidate.id === chosen);
  const amountText = typedText(values, INVOICE_FORM.amount);
  const amount =
    pricing === 'usd'
      ? readUsdAmount(amountText)
      : asset === undefined
        ? amountText === ''
          ? ({ empty: true } as const)
          : ({ refused: 'Choose the asset first: the amount is read in its units.' } as const)
        : readTokenAmount(amountText, asset.crypto);
  return {
    pricing,
    asset,
    amount,
    title: typedText(values, INVOICE_FORM.title),
    expires: readExpiry(typedText(values, INVOICE_FORM.expires)),
    data: typedText(values, INVOICE_FORM.data),
  };
}

/** `--expires` as the typed command reads it: 30m, 2h, 1d; at most 24h (the payment service's limit). */
function readExpiry(text: string): InvoiceDraft['expires'] {
  if (text === '') return { seconds: undefined };
  const ms = parseDuration(text);
  if (ms === undefined)
    return { refused: `Expiry takes a duration such as 30m, 2h or 1d, not "${text.slice(0, 40)}".` };
  if (ms % 1000 !== 0 || ms / 1000 > MAX_EXPIRY_SECONDS)
    return { refused: 'Expiry can be at most 24h (the payment service allows 86400 seconds).' };
  return { seconds: ms / 1000 };
}

/** The preview's lines: what the invoice will be, exactly, or what is still missing. */
function invoicePreview(
  draft: InvoiceDraft,
  answer: { in: 'here' | 'dm'; followed: boolean } = { in: 'here', followed: true },
): { lines: string[] } | { missing: string } {
  const { asset, amount } = draft;
  if ('refused' in amount) return { lines: [`:warning: ${amount.refused}`] };
  if (draft.pricing === 'asset' && asset === undefined) return { missing: 'Choose the asset the payer pays in.' };
  if ('empty' in amount) return { missing: 'Type the amount to invoice.' };
  const lines: string[] = [];
  if (draft.pricing === 'asset' && asset) {
    const { symbol, decimals } = asset.crypto;
    lines.push(
      `Creates a crypto invoice for *${escapeText(formatTokenAmount(amount.units, decimals, symbol))}* on ${formatNetwork(asset.network)}`,
    );
    lines.push(`In base units: ${code(amount.units.toString())} (${escapeText(symbol)} has ${decimals} decimals)`);
    const value = quoteValueUsd({
      amount: amount.units.toString(),
      decimals,
      balance: asset.balance,
      balanceInUsd: asset.balanceInUsd,
    });
    lines.push(
      'cents' in value
        ? `Worth about *${formatUsd(value.cents)}* at the price of the balance held now`
        : `USD value unknown: ${escapeText(value.reason)}`,
    );
  } else {
    lines.push(`Creates a USD invoice for *${formatUsd(amount.units)}* (${code(amount.units.toString())} cents)`);
    lines.push(
      asset
        ? `The payer pays in ${escapeText(asset.crypto.symbol)} on ${formatNetwork(asset.network)}`
        : 'The payer chooses the asset at checkout',
    );
  }
  if (draft.title !== '') lines.push(`Title: ${escapeText(draft.title.slice(0, 200))}`);
  if ('refused' in draft.expires) lines.push(`:warning: ${escapeText(draft.expires.refused)}`);
  else if (draft.expires.seconds !== undefined)
    lines.push(`Expires ${formatDuration(draft.expires.seconds * 1000)} after it is created`);
  const where = answer.in === 'here' ? 'here' : 'in your direct message with the bot';
  lines.push(
    answer.followed
      ? `You get the payment link ${where}, and a direct message when it is paid or expires`
      : `You get the payment link ${where}`,
  );
  return { lines };
}

/**
 * The invoice form as a view, from what is entered and the assets (or that they are still being read); `followed`:
 * whether new invoices are followed (the poller runs), so the preview does not promise a message that won't come.
 */
function buildInvoiceForm(state: FormState, options: { followed: boolean }): ReturnType<typeof formModal> {
  const pricing: Pricing = chosenValue(state.values, INVOICE_FORM.pricing) === 'usd' ? 'usd' : 'asset';
  const assets = isAssetList(state.assets) ? (state.assets as Asset[]) : [];
  const draft = readInvoiceDraft(state.values, assets);
  const preview = isAssetList(state.assets)
    ? invoicePreview(draft, { in: state.origin.responseUrl === undefined ? 'dm' : 'here', followed: options.followed })
    : { missing: 'The preview shows once the assets are read.' };
  return formModal({
    callbackId: FORM_IDS.invoice,
    title: 'New invoice',
    submit: 'Create invoice',
    privateMetadata: JSON.stringify(state.origin),
    blocks: [
      choiceMenuBlock({
        id: INVOICE_FORM.pricing,
        label: 'Priced in',
        choices: [
          ['asset', 'The asset (a crypto amount)'],
          ['usd', 'US dollars'],
        ],
        chosen: pricing,
      }),
      assetMenuBlock({
        id: INVOICE_FORM.asset,
        label: pricing === 'usd' ? 'Payer pays in' : 'Asset',
        assets: state.assets,
        chosen: draft.asset?.id,
        ...(pricing === 'usd' ? { optional: true, hint: 'Leave it empty and the payer chooses at checkout.' } : {}),
      }),
      amountInputBlock({
        id: INVOICE_FORM.amount,
        label:
          pricing === 'usd' ? 'Amount in US dollars' : `Amount${draft.asset ? ` in ${draft.asset.crypto.symbol}` : ''}`,
        placeholder: pricing === 'usd' ? '49.99' : '12,400.50',
      }),
      textInputBlock({
        id: INVOICE_FORM.title,
        label: 'Title',
        optional: true,
        hint: 'What the payer sees, e.g. Pro plan.',
      }),
      textInputBlock({
        id: INVOICE_FORM.expires,
        label: 'Expires after',
        optional: true,
        placeholder: '30m, 2h or 1d (at most 24h)',
      }),
      textInputBlock({
        id: INVOICE_FORM.data,
        label: 'Extra data',
        optional: true,
        hint: 'Returned with the invoice (its extraData), e.g. an order id.',
      }),
      ...previewBlocks(preview),
    ],
  });
}

/** A refusal in the typed command's words (mrkdwn) as plain text for under a field. */
const plainReason = (reason: string) => decodeSlackEntities(reason);

/** The invoice form: built from what is entered; submitted through the typed command's createInvoice. */
export const invoiceForm: FormDefinition = {
  callbackId: FORM_IDS.invoice,
  actionIds: [INVOICE_FORM.pricing, INVOICE_FORM.asset, INVOICE_FORM.amount],
  build: (state, deps) => buildInvoiceForm(state, { followed: deps.invoices !== undefined }),
  async submit(state, deps, userId): Promise<FormSubmission> {
    const draft = readInvoiceDraft(state.values, state.assets);
    const errors: Record<string, string> = {};
    if (draft.pricing === 'asset' && draft.asset === undefined)
      errors[INVOICE_FORM.asset] = chosenValue(state.values, INVOICE_FORM.asset)
        ? 'That asset is no longer enabled for this merchant: choose another.'
        : 'Choose the asset the payer pays in.';
    if (draft.pricing === 'usd' && chosenValue(state.values, INVOICE_FORM.asset) && draft.asset === undefined)
      errors[INVOICE_FORM.asset] = 'That asset is no longer enabled for this merchant: choose another, or none.';
    if ('empty' in draft.amount) errors[INVOICE_FORM.amount] = 'Type the amount to invoice.';
    else if ('refused' in draft.amount && errors[INVOICE_FORM.asset] === undefined)
      errors[INVOICE_FORM.amount] = plainReason(draft.amount.refused);
    if ('refused' in draft.expires) errors[INVOICE_FORM.expires] = draft.expires.refused;
    if (Object.keys(errors).length > 0 || !('units' in draft.amount)) return { errors };

    const units = draft.amount.units;
    const options: InvoiceOptions = {
      ...('seconds' in draft.expires && draft.expires.seconds !== undefined
        ? { expiresInSeconds: draft.expires.seconds }
        : {}),
      ...(draft.data !== '' ? { data: draft.data } : {}),
    };
    const titleWords = draft.title === '' ? [] : draft.title.split(/\s+/);
    // The typed command's own words for the same invoice: the exact amount, then the asset (by id) or `usd`.
    let amountText: string;
    let words: string[];
    if (draft.pricing === 'asset') {
      const asset = draft.asset!;
      amountText = fromBaseUnits(units, asset.crypto.decimals);
      words = [asset.id, ...titleWords];
    } else {
      amountText = `$${centsToUsd(units)}`;
      // `usd` first, so a title that starts with "USD" keeps its word (the command drops one leading `usd`).
      words = ['usd', ...titleWords];
      if (draft.asset) options.asset = draft.asset.id;
    }
    const follower = deps.invoices;
    return {
      run: () =>
        createInvoice(
          deps,
          amountText,
          words,
          options,
          follower ? (created) => follower.follow(created, userId) : undefined,
        ),
    };
  },
};
