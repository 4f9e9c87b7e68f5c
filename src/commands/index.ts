/**
 * The one table of `/treasury` subcommands, in the order help lists them (each under its `group`, HELP_GROUPS in
 * subcommand.ts). Help (help-blocks.ts), the parser's dispatch (parse.ts) and the slash-command listener read it: a
 * new subcommand is one module and one line here.
 */
import { alerts } from './alerts.js';
import { audit } from './audit.js';
import { balance } from './balance.js';
import { balances } from './balances.js';
import { deposit } from './deposit.js';
import { digest } from './digest.js';
import { freeze } from './freeze.js';
import { gas } from './gas.js';
import { help } from './help.js';
import { invoice } from './invoice.js';
import { payout } from './payout.js';
import { payouts } from './payouts.js';
import { policy } from './policy.js';
import { runway } from './runway.js';
import type { Subcommand } from './subcommand.js';
import { swap } from './swap.js';
import { swaps } from './swaps.js';
import { task } from './task.js';
import { threshold } from './threshold.js';
import { thresholds } from './thresholds.js';
import { twoFactor } from './two-factor.js';
import { withdrawal } from './withdrawal.js';
import { withdrawals } from './withdrawals.js';

/** Every `/treasury` subcommand. */
export const SUBCOMMANDS = [
  help,
  // Look up
  balances,
  balance,
  withdrawals,
  withdrawal,
  payouts,
  task,
  deposit,
  gas,
  runway,
  // Get paid
  invoice,
  // Move money
  swap,
  swaps,
  policy,
  payout,
  // Alerts
  alerts,
  thresholds,
  threshold,
  digest,
  // Controls
  freeze,
  twoFactor,
  audit,
] as const;

/** Every parsed `/treasury` command: what the registered modules' `parse` return. */
export type TreasuryCommand = (typeof SUBCOMMANDS)[number] extends infer S
  ? S extends Subcommand<infer Command>
    ? Command
    : never
  : never;
