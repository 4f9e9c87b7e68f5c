import type { Invoice } from '../payments/index.js';
import { clipText, fields, header, section, type SlackMessage } from './common.js';
import { formatCryptoAmount, formatNetwork, formatRelative, formatStatus, formatUsd, formatUtc } from './format.js';
import { recordFooter, type RecordViewOptions } from './share.js';
import { code, escapeText, link } from './mrkdwn.js';

/** Options of the invoice builders. */
export interface InvoiceViewOptions extends RecordViewOptions {
  now: Date;
  /** `created`: just made by this user; `lookup`: an existing invoice. */
  mode: 'created' | 'lookup';
}

/** An invoice: payment link, amount, expiry, and the crypto details once a currency is chosen. */
export function buildInvoice(invoice: Invoice, options: InvoiceViewOptions): SlackMessage {
  // The headline (header and notification text) carries a short form of the title; the Title field has it whole.
  const shortTitle = clipText(invoice.productTitle, 80);
  const title = shortTitle ? ` — ${escapeText(shortTitle)}` : '';
  const usd = formatUsd(invoice.usdAmount);
  const cryptoAmount =
    invoice.crypto && invoice.cryptoAmount !== null ? formatCryptoAmount(invoice.cryptoAmount, invoice.crypto) : undefined;
  const headline = options.mode === 'created' ? `Invoice created: ${cryptoAmount ?? usd}${title}` : `Invoice ${cryptoAmount ?? usd}${title}`;
  const expired = invoice.expiredAt.getTime() <= options.now.getTime();

  const pairs: Array<[string, string]> = [
    ['Status', formatStatus(invoice.status)],
    ['Amount', cryptoAmount ? `${cryptoAmount} (${usd})` : usd],
    [expired ? 'Expired' : 'Expires', `${formatUtc(invoice.expiredAt)} (${formatRelative(invoice.expiredAt, options.now)})`],
  ];
  if (invoice.network) pairs.push(['Network', formatNetwork(invoice.network)]);
  if (invoice.productTitle) pairs.push(['Title', escapeText(invoice.productTitle)]);
  if (invoice.extraData) pairs.push(['Extra data', escapeText(invoice.extraData)]);

  return {
    text: `${headline}: ${escapeText(invoice.paymentPageLink)}`,
    blocks: [
      header(headline),
      section(`*Payment page:* ${link(invoice.paymentPageLink, invoice.paymentPageLink)}`),
      fields(pairs),
      ...(invoice.address ? [section(`*Pay to address*\n${code(invoice.address)}`)] : []),
      ...recordFooter('invoice', 'Invoice', invoice.id, options),
    ],
  };
}
