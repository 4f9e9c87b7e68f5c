import { clipText, context, fields, header, type SlackMessage, section } from '../../blocks/common.js';
import {
  formatCryptoAmount,
  formatNetwork,
  formatRelative,
  formatStatus,
  formatTokenAmount,
  formatUsd,
  formatUtc,
} from '../../blocks/format.js';
import { code, escapeText, link } from '../../blocks/mrkdwn.js';
import { type RecordViewOptions, recordFooter } from '../../blocks/share.js';
import type { Invoice } from '../../payments/index.js';
import type { InvoiceOutcome } from './followed.js';

/** Options of the invoice builders. */
export interface InvoiceViewOptions extends RecordViewOptions {
  now: Date;
  /** `created`: just made by this user; `lookup`: an existing invoice. */
  mode: 'created' | 'lookup';
  /** Just made and followed: the reply says its creator will get a direct message. */
  followed?: boolean;
  /** Following it ended: an invoice that expired unpaid says so, a dropped one that it is not followed. */
  outcome?: InvoiceOutcome;
}

/** The line of the creation reply when the invoice is followed. */
export const FOLLOWED_LINE = 'You will get a direct message from the bot when this invoice is paid or expires.';

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

  // The API may still say `pending` once expiredAt has passed: the bot calls that "expired unpaid".
  const status =
    options.outcome?.kind === 'expired'
      ? `:hourglass: expired unpaid (the payment service still says ${escapeText(invoice.status)})`
      : formatStatus(invoice.status);
  const pairs: Array<[string, string]> = [
    ['Status', status],
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
      ...(options.followed ? [context(FOLLOWED_LINE)] : []),
      ...(options.outcome?.kind === 'dropped'
        ? [
            context(
              `No longer followed by the bot since ${formatUtc(new Date(options.outcome.at))}: its status may have changed.`,
            ),
          ]
        : []),
      ...recordFooter('invoice', 'Invoice', invoice.id, options),
    ],
  };
}

/** What the direct message about an invoice needs besides the invoice: how following ended, and the bound. */
export interface InvoiceNoticeOptions {
  outcome: InvoiceOutcome;
  now: Date;
  /** INVOICE_FOLLOW_MAX: named when the invoice was dropped over the bound. */
  max: number;
}

/**
 * The direct message to an invoice's creator: what happened, in one sentence (its status as the API sent
 * it, "expired unpaid", or no longer followed and how to look it up), then the invoice as the API last gave it.
 */
export function buildInvoiceNotice(invoice: Invoice, options: InvoiceNoticeOptions): SlackMessage {
  const shortTitle = clipText(invoice.productTitle, 80);
  const { crypto, cryptoAmount: units } = invoice;
  const amount =
    crypto && units !== null ? formatTokenAmount(units, crypto.decimals, crypto.symbol) : formatUsd(invoice.usdAmount);
  const what = `${amount}${shortTitle ? ` — ${shortTitle}` : ''}`;
  // The sentence names the status briefly; the Status field below has it whole.
  const status = clipText(invoice.status, 100);
  const lookup = `/treasury invoice ${invoice.id}`;
  const { outcome } = options;
  let plain: string;
  let words: string;
  if (outcome.kind === 'changed') {
    plain = `Your invoice ${what} is now ${status}`;
    words = `Your invoice *${escapeText(what)}* is now *${escapeText(status)}* (as the payment service reports it).`;
  } else if (outcome.kind === 'expired') {
    plain = `Your invoice ${what} expired unpaid`;
    words = `Your invoice *${escapeText(what)}* expired unpaid at ${formatUtc(invoice.expiredAt)}.`;
  } else if (outcome.reason === 'unreadable') {
    plain = `The bot no longer follows your invoice ${what}`;
    words = `The bot could not read your invoice *${escapeText(what)}* since it expired, so it no longer follows it. Look it up with ${code(lookup)}.`;
  } else {
    plain = `The bot no longer follows your invoice ${what}`;
    words = `The bot no longer follows your invoice *${escapeText(what)}*: it follows at most ${options.max} open invoices and this was the oldest. You will not hear when it is paid; look it up with ${code(lookup)}.`;
  }
  // The sentence already says it is no longer followed.
  const details = buildInvoice(invoice, {
    now: options.now,
    mode: 'lookup',
    shareable: false,
    ...(outcome.kind === 'dropped' ? {} : { outcome }),
  });
  return {
    text: `${escapeText(plain)} · id ${escapeText(invoice.id)}`,
    blocks: [section(words), ...details.blocks],
  };
}
