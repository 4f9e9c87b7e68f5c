/**
 * The single-process store: the lowdb state file (state-file.ts) opened with the bot's records and their loader
 * (bot-state.ts), and its two repositories (swap-quotes.ts, alerts.ts).
 */
import type { Logger } from '../../logger.js';
import type {
  AlertRepository,
  AuditRepository,
  BalanceRepository,
  InvoiceRepository,
  PayoutRepository,
  SwapQuoteRepository,
} from '../repository.js';
import { createLowdbAlertRepository } from './alerts.js';
import { createLowdbAuditRepository } from './audit.js';
import { createLowdbBalanceRepository } from './balances.js';
import { type BotState, emptyState, loadBotState } from './bot-state.js';
import { createLowdbInvoiceRepository } from './invoices.js';
import { createLowdbPayoutRepository } from './payouts.js';
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
  readonly audit: AuditRepository;
};

/** Opens DATA_FILE as the bot's state. */
export async function openBotStore(file: string, logger?: Logger, now?: () => Date): Promise<BotStore> {
  const store = await openStore({ file, load: loadBotState, empty: emptyState, logger, now });
  return Object.assign(store, {
    swapQuotes: createLowdbSwapQuoteRepository(store),
    alerts: createLowdbAlertRepository(store),
    balances: createLowdbBalanceRepository(store),
    payouts: createLowdbPayoutRepository(store),
    invoices: createLowdbInvoiceRepository(store),
    audit: createLowdbAuditRepository(store),
  });
}
