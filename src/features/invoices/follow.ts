/**
 * Invoices that report back. An invoice made with `/treasury invoice …` is recorded (`follow`); after each
 * poll of the alert poller (on the replica that polls) `followUp` checks the invoices that are due, at most
 * INVOICE_FOLLOW.checksPerPoll `invoice-info` requests, the most overdue first, each at its age band's interval and
 * once right after `expiredAt`. When the status is no longer `pending`, or `expiredAt` passed while it still is,
 * the outcome is committed in the store FIRST; then the creator gets one direct message and every copy shared in a
 * channel is rewritten (chat.update), and following ends.
 *
 * The direct message is sent exactly once. The claim (`sending`, with the DM channel and the time) is written
 * before the post, which carries its key in Slack message metadata. Slack refused it (`ratelimited`, an error that
 * may pass): the claim is released and the next poll posts it. No answer (a timeout, a 5xx, a crash before the
 * answer was recorded): the next poll looks for the key in the DM (conversations.history, scope `im:history`) and
 * records the message found; it posts again only when the message is still not there once the first attempt is
 * INVOICE_FOLLOW.uncertainSettleMs old. When the DM cannot be read (the scope is missing) or the lookup keeps
 * failing, the notice is left `unconfirmed` and the log says it may be missing: never a second message.
 */
import type { SlackMessage } from '../../blocks/common.js';
import { mention } from '../../blocks/mrkdwn.js';
import { errorFields, type Logger } from '../../logger.js';
import type { Invoice, PaymentsClient } from '../../payments/index.js';
import { describeSlackError, isTransient, mayHaveHappened, needsAPerson, slackErrorCode } from '../../slack/errors.js';
import type { SlackGateway } from '../../slack/gateway.js';
import type { BotRepositories } from '../repositories.js';
import { buildInvoice, buildInvoiceNotice } from './blocks.js';
import {
  claimNotice,
  dueInvoices,
  endNotice,
  type FollowedInvoice,
  INVOICE_EVENT_TYPE,
  INVOICE_FOLLOW,
  type NoticeLookup,
  newFollowedInvoice,
  noticeKey,
  noticeLookupDecision,
  noticeSent,
  recordCheck,
  recordFailedCheck,
  releaseNotice,
  removeCopy,
} from './followed.js';
import { invoiceOf, invoiceSnapshotOf } from './snapshot.js';

/** What the follower needs; everything is injected. */
export interface InvoiceFollowerDeps {
  store: Pick<BotRepositories, 'invoices'>;
  payments: Pick<PaymentsClient, 'getInvoice'>;
  slack: Pick<SlackGateway, 'post' | 'update' | 'openDirectMessage' | 'findPosted'>;
  now: () => Date;
  logger: Logger;
  /** INVOICE_FOLLOW_MAX: open invoices followed at most; over it the oldest is dropped (its creator told). */
  max: number;
  /** Replicated deployments: asked before each post; a replica that lost the poller's lease posts nothing more. */
  stillLeading?: () => Promise<boolean>;
}

/** What one follow-up round did (for the log and tests). */
export interface InvoiceFollowReport {
  /** invoice-info requests made. */
  checked: number;
  /** Invoices whose following ended in this round (changed, expired, dropped as unreadable). */
  settled: number;
  /** Direct messages Slack accepted (or found after a lost answer). */
  notices: number;
  /** Shared copies rewritten. */
  rewritten: number;
}

/** Following invoices: recorded at creation and share, checked after each poll. */
export interface InvoiceFollower {
  /**
   * Follows an invoice `createdBy` just made; over the bound the oldest open one is dropped in the same change. False
   * when it could not be recorded (the store failed: logged); the invoice itself stands either way.
   */
  follow(invoice: Invoice, createdBy: string): Promise<boolean>;
  /** A copy of the invoice shared in `channel` at `ts` by `sharedBy`, to rewrite when it changes (never throws). */
  recordShare(invoiceId: string, copy: { channel: string; ts: string; sharedBy: string }): Promise<void>;
  /** One round after a poll: the checks that are due, then the direct messages and rewrites that are owed. */
  followUp(): Promise<InvoiceFollowReport>;
}

/** Slack errors of chat.update that mean the shared copy is gone: it is dropped from the list, quietly. */
const COPY_GONE = new Set(['message_not_found', 'channel_not_found']);

export function createInvoiceFollower(deps: InvoiceFollowerDeps): InvoiceFollower {
  const { store, logger } = deps;
  const change = <R>(id: string, apply: (record: FollowedInvoice) => R) => store.invoices.changeInvoice(id, apply);
  const leading = async () => !deps.stillLeading || (await deps.stillLeading());

  /** Checks the invoices that are due; the outcome of each is committed before anything is said in Slack. */
  async function checkDue(report: InvoiceFollowReport): Promise<void> {
    const due = dueInvoices(await store.invoices.listInvoices(), deps.now(), INVOICE_FOLLOW.checksPerPoll);
    for (const record of due) {
      if (!(await leading())) return;
      report.checked += 1;
      let read: { invoice: Invoice } | { failure: string };
      try {
        read = { invoice: await deps.payments.getInvoice(record.id) };
      } catch (error) {
        logger.warn('invoice follow: could not read an invoice; it is checked again later', {
          invoice: record.id,
          error: errorFields(error),
        });
        read = { failure: error instanceof Error ? error.message : String(error) };
      }
      // The outcome is committed here, before anything is said in Slack.
      const at = deps.now();
      const outcome = (
        await change(record.id, (r) =>
          'invoice' in read
            ? recordCheck(r, invoiceSnapshotOf(read.invoice), at)
            : recordFailedCheck(r, read.failure, at),
        )
      )?.result;
      if (outcome === 'changed' || outcome === 'expired' || outcome === 'dropped') {
        report.settled += 1;
        logger.info('invoice follow: an invoice left pending or expired; its creator is told', {
          invoice: record.id,
          outcome,
        });
      }
      // A read that failed after the client's own retries (the API down or slow) ends the round: the others would
      // each wait as long, holding up the poll; they are due again at the next one.
      if ('failure' in read) return;
    }
  }

  /** The message of the outcome, drawn from the invoice as the API last gave it. */
  const noticeOf = (record: FollowedInvoice): SlackMessage =>
    buildInvoiceNotice(invoiceOf(record.invoice), { outcome: record.outcome!, now: deps.now(), max: deps.max });

  /**
   * A direct message that may have been posted (claimed, no answer recorded): looked for in the DM by its key.
   * Answers whether it was found, is to be posted now, or neither (wait, or given up as unconfirmed).
   */
  async function settleUncertain(record: FollowedInvoice): Promise<'found' | 'post' | 'no'> {
    const notice = record.notice!;
    const since = new Date(notice.since ?? record.outcome!.at);
    let found: NoticeLookup;
    try {
      const ts = await deps.slack.findPosted(
        notice.channel ?? '',
        { eventType: INVOICE_EVENT_TYPE, key: noticeKey(record.id), since },
        { wait: false },
      );
      found = ts === undefined ? { absent: true } : { ts };
    } catch (error) {
      const reason = describeSlackError(error);
      found = isTransient(error) && !needsAPerson(error) ? { failed: reason } : { unreadable: reason };
    }
    const decision = noticeLookupDecision(found, deps.now().getTime() - since.getTime());
    if (decision === 'wait') {
      logger.info('invoice follow: a direct message whose answer was lost is not found yet; looking again next poll', {
        invoice: record.id,
        ...('failed' in found ? { reason: found.failed } : {}),
      });
      return 'no';
    }
    if (decision === 'unconfirmed') {
      const reason = 'unreadable' in found ? found.unreadable : 'failed' in found ? found.failed : 'unknown';
      logger.warn(
        'invoice follow: Slack did not confirm the direct message to the creator and the DM cannot be checked; it is not sent again (it may be missing)',
        { invoice: record.id, createdBy: record.createdBy, reason },
      );
      await change(record.id, (r) => endNotice(r, 'unconfirmed', reason, deps.now()));
      return 'no';
    }
    if (decision === 'post_again') {
      logger.info('invoice follow: a direct message whose answer was lost is not in the DM; posting it', {
        invoice: record.id,
      });
      await change(record.id, (r) => releaseNotice(r));
      return 'post';
    }
    logger.info('invoice follow: a direct message whose answer was lost is in the DM; recorded, not sent again', {
      invoice: record.id,
    });
    await change(record.id, (r) => noticeSent(r, decision.record, deps.now()));
    return 'found';
  }

  /** Tells the creator, once (see the file's comment). Answers whether Slack took a message. */
  async function deliverNotice(record: FollowedInvoice): Promise<boolean> {
    const state = record.notice?.state;
    if (state === 'sending') {
      const settled = await settleUncertain(record);
      if (settled !== 'post') return settled === 'found';
    } else if (state !== 'owed') {
      return false;
    }
    if (!(await leading())) return false;
    let channel: string;
    try {
      channel = await deps.slack.openDirectMessage(record.createdBy, { wait: false });
    } catch (error) {
      return refused(record, error, 'could not open the direct message with the creator of an invoice');
    }
    const claim = await change(record.id, (r) => claimNotice(r, channel, deps.now()));
    if (!claim?.result) return false;
    try {
      const ts = await deps.slack.post(channel, noticeOf(claim.record), {
        wait: false,
        unfurl: false,
        metadata: { event_type: INVOICE_EVENT_TYPE, event_payload: { key: noticeKey(record.id) } },
      });
      await change(record.id, (r) => noticeSent(r, ts, deps.now()));
      return true;
    } catch (error) {
      if (mayHaveHappened(error)) {
        logger.warn(
          'invoice follow: Slack did not confirm the direct message to the creator; the next poll looks for it before sending it again',
          { invoice: record.id, reason: describeSlackError(error) },
        );
        return false;
      }
      await change(record.id, (r) => releaseNotice(r));
      return refused(record, error, 'Slack did not take the direct message to the creator of an invoice');
    }
  }

  /** Slack said no: tried again next poll when it may pass, else the notice ends as failed (said at error level). */
  async function refused(record: FollowedInvoice, error: unknown, what: string): Promise<false> {
    const reason = describeSlackError(error);
    if (isTransient(error) && !needsAPerson(error)) {
      logger.warn(`invoice follow: ${what}; trying again at the next poll`, { invoice: record.id, reason });
      return false;
    }
    logger.error(`invoice follow: ${what}; it is not tried again`, {
      invoice: record.id,
      createdBy: record.createdBy,
      reason,
    });
    await change(record.id, (r) => endNotice(r, 'failed', reason, deps.now()));
    return false;
  }

  /** Rewrites every shared copy with the outcome; a copy leaves the list once rewritten or gone. */
  async function rewriteCopies(record: FollowedInvoice): Promise<number> {
    let rewritten = 0;
    const invoice = invoiceOf(record.invoice);
    for (const copy of record.shared) {
      const message = buildInvoice(invoice, {
        now: deps.now(),
        mode: 'lookup',
        shareable: false,
        sharedBy: mention(copy.sharedBy),
        outcome: record.outcome!,
      });
      try {
        await deps.slack.update(copy.channel, copy.ts, message, { wait: false });
        rewritten += 1;
      } catch (error) {
        const code = slackErrorCode(error);
        if (code !== undefined && COPY_GONE.has(code)) {
          logger.debug('invoice follow: a shared copy is gone from Slack; it is not rewritten', {
            invoice: record.id,
            channel: copy.channel,
            reason: code,
          });
        } else if (isTransient(error) && !needsAPerson(error)) {
          logger.info('invoice follow: could not rewrite a shared copy now; trying again at the next poll', {
            invoice: record.id,
            channel: copy.channel,
            reason: describeSlackError(error),
          });
          continue;
        } else {
          logger.warn('invoice follow: Slack refused to rewrite a shared copy; it keeps its old state', {
            invoice: record.id,
            channel: copy.channel,
            reason: describeSlackError(error),
          });
        }
      }
      await change(record.id, (r) => removeCopy(r, copy.channel, copy.ts));
    }
    return rewritten;
  }

  return {
    async follow(invoice, createdBy) {
      const now = deps.now();
      try {
        const { dropped } = await store.invoices.followInvoice(
          newFollowedInvoice(invoiceSnapshotOf(invoice), createdBy, now),
          deps.max,
          now,
        );
        for (const old of dropped)
          logger.info('invoice follow: over INVOICE_FOLLOW_MAX, the oldest open invoice is no longer followed', {
            invoice: old.id,
            max: deps.max,
          });
        return true;
      } catch (error) {
        logger.warn('invoice follow: could not record a new invoice to follow; it is not followed', {
          invoice: invoice.id,
          error: errorFields(error),
        });
        return false;
      }
    },

    async recordShare(invoiceId, copy) {
      try {
        const followed = await store.invoices.addSharedCopy(invoiceId, { ...copy, sharedAt: deps.now().toISOString() });
        if (followed)
          logger.debug('invoice follow: a shared copy will be rewritten when the invoice changes', { invoiceId });
      } catch (error) {
        logger.warn('invoice follow: could not record a shared copy; it will not be rewritten', {
          invoiceId,
          error: errorFields(error),
        });
      }
    },

    async followUp() {
      const report: InvoiceFollowReport = { checked: 0, settled: 0, notices: 0, rewritten: 0 };
      await checkDue(report);
      for (const record of await store.invoices.listInvoices()) {
        if (!record.outcome) continue;
        if (!(await leading())) break;
        if (await deliverNotice(record)) report.notices += 1;
        if (record.shared.length > 0) report.rewritten += await rewriteCopies(record);
      }
      if (report.checked + report.notices + report.rewritten > 0)
        logger.debug('invoice follow: round done', { ...report });
      return report;
    },
  };
}
