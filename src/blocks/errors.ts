import { isStorageUnavailable, UserFacingError } from '../kernel/errors.js';
import { DamagedRecordError } from '../kernel/store-error.js';
import {
  PaymentsError,
  PaymentsForbiddenError,
  PaymentsUnexpectedResponseError,
  PaymentsValidationError,
} from '../payments/index.js';
import { clipText, context, type SlackMessage, section } from './common.js';
import { code, escapeText } from './mrkdwn.js';

/** Plain names for the request fields the payment service may name in a refusal. */
const FIELD_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    usdAmountInCents: 'Amount',
    cryptoAmount: 'Amount',
    amount: 'Amount',
    assetId: 'Asset',
    assetIdFrom: 'Source asset',
    assetIdTo: 'Target asset',
    productTitle: 'Title',
    extraData: 'Extra data',
    paymentDelayTime: 'Payment window',
    estimateId: 'Quote',
    id: 'Id',
  }),
);

/**
 * A short, escaped sentence saying what went wrong; never a stack trace. `notFound` names the missing thing.
 * Everything told to the person in our own words (usage, amounts, features) is a UserFacingError.
 */
export function describeFailure(error: unknown, notFound = 'record'): string {
  if (error instanceof UserFacingError) return error.mrkdwn;
  if (error instanceof PaymentsValidationError) {
    // The service's own words, and what each refused value was, in plain names; the raw field paths go to the log.
    const details = error.fieldErrors.map((f) => {
      const what = FIELD_NAMES.get(f.field);
      return `• ${what ? `${what}: ` : ''}${escapeText(f.messages.join('; '))}`;
    });
    return [`The payment service refused this: *${escapeText(error.apiMessage)}*`, ...details].join('\n');
  }
  if (error instanceof PaymentsForbiddenError) {
    const which = error.permission ? `the permission ${code(error.permission)}` : 'a permission';
    return `The payment API key lacks ${which} needed for this. An admin can grant it in the payment dashboard.`;
  }
  if (error instanceof PaymentsUnexpectedResponseError) {
    return (
      'The payment service sent an answer the bot could not read, so nothing is shown rather than something wrong. ' +
      'This is usually temporary: please try again in a minute. If it keeps happening, tell whoever runs the bot (the details are in its log).'
    );
  }
  if (error instanceof PaymentsError) {
    switch (error.code) {
      case 'unauthorized':
        return "The payment service rejected the bot's API key. An admin needs to check `PAYMENTS_API_KEY`.";
      case 'not_found':
        return `No such ${escapeText(notFound)} for this merchant.`;
      case 'rate_limited':
        return 'The payment service is rate-limiting us right now. Please try again in a minute.';
      case 'network':
        return 'The payment service did not answer in time. Please try again in a minute.';
      default:
        return 'The payment service had a problem on its side. This is usually temporary: please try again in a minute.';
    }
  }
  if (error instanceof DamagedRecordError) {
    return `A damaged record in the bot's database (${escapeText(error.record)}) blocks this: the daily limit and the 24-hour totals cannot be counted without it, so nothing was quoted, approved or saved. Tell whoever runs the bot; its log names the record.`;
  }
  if (isStorageUnavailable(error)) {
    return "The bot's database cannot be reached right now, so nothing was decided or saved. Lookups still work; please try again in a minute.";
  }
  return 'Something went wrong inside the bot. It has been logged; please try again.';
}

/** The reply for a failed command or click. */
export function buildFailure(error: unknown, notFound?: string): SlackMessage {
  const text = clipText(describeFailure(error, notFound), 2_000);
  const isOurFault = !(error instanceof UserFacingError || error instanceof PaymentsError);
  return {
    text,
    blocks: [
      section(`:warning: ${text}`),
      ...(isOurFault ? [context('If this keeps happening, tell whoever runs the bot.')] : []),
    ],
  };
}
