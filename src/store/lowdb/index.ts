/**
 * The single-process store: the lowdb state file (state-file.ts) opened with the bot's records and their loader
 * (bot-state.ts), and one repository per record family (a file each here) behind the contract of
 * features/repositories.ts.
 */
import { constants as fsConstants } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type {
  AlertRepository,
  AuditRepository,
  BalanceRepository,
  FormSubmissionRepository,
  FreezeRepository,
  InvoiceRepository,
  PayoutRepository,
  SecondFactorRepository,
  SwapQuoteRepository,
} from '../../features/repositories.js';
import { QUOTE_RETENTION_MS } from '../../features/swaps/retention.js';
import { errorFields, type Logger } from '../../logger.js';
import { createLowdbAlertRepository } from './alerts.js';
import { createLowdbAuditRepository } from './audit.js';
import { createLowdbBalanceRepository } from './balances.js';
import { type BotState, emptyState, isMoneyRecord, loadBotState } from './bot-state.js';
import { createLowdbFormSubmissionRepository } from './form-submissions.js';
import { createLowdbFreezeRepository } from './freeze.js';
import { createLowdbInvoiceRepository } from './invoices.js';
import { createLowdbPayoutRepository } from './payouts.js';
import { hasQuoteArchive, quoteArchiveBeside } from './quote-archive.js';
import { createLowdbSecondFactorRepository } from './second-factor.js';
import { openStore, type Store } from './state-file.js';
import { createLowdbSwapQuoteRepository } from './swap-quotes.js';

/**
 * The bot's state store. The features write through its repositories of named operations: `swapQuotes` for
 * the swap feature, `alerts` for the alert poller. `read()` stays for start-up checks and tests.
 */
export type BotStore = Store<BotState> & {
  readonly swapQuotes: SwapQuoteRepository;
  readonly alerts: AlertRepository;
  readonly balances: BalanceRepository;
  readonly payouts: PayoutRepository;
  readonly invoices: InvoiceRepository;
  readonly freeze: FreezeRepository;
  readonly audit: AuditRepository;
  readonly secondFactor: SecondFactorRepository;
  readonly formSubmissions: FormSubmissionRepository;
  /** Whether the state file can be used now (/readyz): it (or, before the first write, its folder) is readable and writable. */
  health(): Promise<{ ok: boolean; detail: string }>;
};

/**
 * Opens DATA_FILE as the bot's state. A file that cannot be read as a whole, or a missing file beside the quote
 * archive it wrote, refuses to open (StateFileRefusedError) unless `acceptEmptyState`; so does a damaged swap quote or
 * payout request, unless `setAsideDamagedRecords` (see openStore).
 */
export async function openBotStore(
  file: string,
  logger?: Logger,
  now?: () => Date,
  options: { acceptEmptyState?: boolean; setAsideDamagedRecords?: boolean } = {},
): Promise<BotStore> {
  const store = await openStore({
    file,
    load: loadBotState,
    empty: emptyState,
    logger,
    now,
    acceptEmptyState: options.acceptEmptyState,
    refusesStart: isMoneyRecord,
    setAsideDamagedRecords: options.setAsideDamagedRecords,
    missingButExpected: (path) =>
      hasQuoteArchive(path) ? 'the quote archive it wrote is beside it (<file>.quotes-<month>.jsonl)' : undefined,
  });
  const archive = quoteArchiveBeside(resolve(file));
  const opened = Object.assign(store, {
    swapQuotes: createLowdbSwapQuoteRepository(store, archive, logger),
    alerts: createLowdbAlertRepository(store),
    balances: createLowdbBalanceRepository(store),
    payouts: createLowdbPayoutRepository(store),
    invoices: createLowdbInvoiceRepository(store),
    freeze: createLowdbFreezeRepository(store),
    secondFactor: createLowdbSecondFactorRepository(store),
    formSubmissions: createLowdbFormSubmissionRepository(store),
    health: () => stateFileHealth(resolve(file)),
    audit: createLowdbAuditRepository(store, archive, (month, lines) =>
      logger?.error('damaged lines in the swap quote archive were left out of the audit export', { month, lines }),
    ),
  });
  // A file from before the archive (or one that saw no new quote for long) holds quotes past the retention: they
  // leave now, by the file's own clock (its newest estimate), as saveQuote does with each new quote.
  let newest = 0;
  for (const quote of Object.values(store.read().swapQuotes))
    newest = Math.max(newest, Date.parse(quote.estimatedAt) || 0);
  if (newest > 0) {
    try {
      const moved = await opened.swapQuotes.archiveEndedQuotes(new Date(newest - QUOTE_RETENTION_MS));
      if (moved > 0) logger?.info('swap quotes past their retention moved to the archive', { moved });
    } catch (error) {
      logger?.warn('could not move old swap quotes to the archive; they stay in the state file for now', {
        error: errorFields(error),
      });
    }
  }
  return opened;
}

/** The state file is read and replaced (a temp file renamed over it): both it and its folder must be usable. */
async function stateFileHealth(path: string): Promise<{ ok: boolean; detail: string }> {
  try {
    await access(dirname(path), fsConstants.R_OK | fsConstants.W_OK);
    await access(path, fsConstants.R_OK | fsConstants.W_OK).catch((error: unknown) => {
      // Not written yet: the folder being writable is enough.
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    });
    return { ok: true, detail: 'state file readable and writable' };
  } catch (error) {
    return { ok: false, detail: `state file: ${(error as { code?: string }).code ?? String(error)}` };
  }
}
