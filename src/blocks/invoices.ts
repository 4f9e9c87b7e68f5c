import type { Invoice } from '../payments/index.js';
import { clipText, fields, header, type SlackMessage, section } from './common.js';
import {
  formatCryptoAmount,
  formatNetwork,
  formatRelative,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from './format.js';
import { code, escapeText, link } from './mrkdwn.js';
import { type RecordViewOptions, recordFooter } from './share.js';

/** Options of the invoice builders. */
export interface InvoiceViewOptions extends RecordViewOptions {
  now: Date;
  /** `created`: just made by this user; `lookup`: an existing invoice. */
  mode: 'created' | 'lookup';
}

/** An invoice: payment link, amount, expiry, and the crypto details once a currency is chosen. */
export function buildInvoice(invoice: Invoice, options: InvoiceViewOptions): SlackMessage {
  // The headline (header and notification text) carries a short form of the title; the Title field has it whole.
  // It is plain text: literal in the plain_text header, escaped once for the mrkdwn notification text.
  const shortTitle = clipText(invoice.productTitle, 80);
  const title = shortTitle ? ` — ${shortTitle}` : '';
  const usd = formatUsd(invoice.usdAmount);
  const { crypto, cryptoAmount: units } = invoice;
  const cryptoAmount = crypto && units !== null ? formatCryptoAmount(units, crypto) : undefined;
  const plainAmount = crypto && units !== null ? formatTokenAmount(units, crypto.decimals, crypto.symbol) : usd;
  const headline =
    options.mode === 'created' ? `Invoice created: ${plainAmount}${title}` : `Invoice ${plainAmount}${title}`;
  const expired = invoice.expiredAt.getTime() <= options.now.getTime();

  const pairs: Array<[string, string]> = [
    ['Status', formatStatus(invoice.status)],
    ['Amount', cryptoAmount ? `${cryptoAmount} (${usd})` : usd],
    [
      expired ? 'Expired' : 'Expires',
      `${formatUtc(invoice.expiredAt)} (${formatRelative(invoice.expiredAt, options.now)})`,
    ],
  ];
  if (invoice.network) pairs.push(['Network', formatNetwork(invoice.network)]);
  if (invoice.productTitle) pairs.push(['Title', escapeText(invoice.productTitle)]);
  if (invoice.extraData) pairs.push(['Extra data', escapeText(invoice.extraData)]);

  return {
    text: `${escapeText(headline)}: ${escapeText(invoice.paymentPageLink)} · ${escapeText(invoice.status)} · id ${escapeText(invoice.id)}`,
    blocks: [
      header(headline),
      section(`*Payment page:* ${link(invoice.paymentPageLink, invoice.paymentPageLink)}`),
      fields(pairs),
      ...(invoice.address ? [section(`*Pay to address*\n${code(invoice.address)}`)] : []),
      ...recordFooter('invoice', 'Invoice', invoice.id, options),
    ],
  };
}
