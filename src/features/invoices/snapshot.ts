/** The invoice as the API gave it, kept in a followed record, and back: what the messages are drawn from. */

import type { Invoice } from '../../payments/index.js';
import type { InvoiceSnapshot } from './followed.js';

/** The fields of an invoice the bot shows, as JSON (the expiry as ISO). */
export function invoiceSnapshotOf(invoice: Invoice): InvoiceSnapshot {
  return {
    id: invoice.id,
    status: invoice.status,
    usdAmount: invoice.usdAmount,
    cryptoAmount: invoice.cryptoAmount,
    crypto: invoice.crypto
      ? {
          id: invoice.crypto.id,
          title: invoice.crypto.title,
          symbol: invoice.crypto.symbol,
          contractAddress: invoice.crypto.contractAddress,
          decimals: invoice.crypto.decimals,
          logoURI: invoice.crypto.logoURI,
        }
      : null,
    network: invoice.network
      ? {
          id: invoice.network.id,
          title: invoice.network.title,
          symbol: invoice.network.symbol,
          chainId: invoice.network.chainId,
          networkType: invoice.network.networkType,
        }
      : null,
    paymentPageLink: invoice.paymentPageLink,
    productTitle: invoice.productTitle,
    extraData: invoice.extraData,
    address: invoice.address,
    expiredAt: invoice.expiredAt.toISOString(),
  };
}

/** The invoice to draw again from what was kept (the fee is not shown on invoices, so none is kept). */
export function invoiceOf(snapshot: InvoiceSnapshot): Invoice {
  return {
    ...snapshot,
    expiredAt: new Date(snapshot.expiredAt),
    fee: { network: [], service: null, exchange: null, totalInUsd: null },
  };
}
