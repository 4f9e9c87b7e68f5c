// The seed dataset: a realistic treasury for merchant A (7 assets on 3 EVM networks, ~45 withdrawals, ~120 payout
// tasks, ~80 gas rows, deposits, invoices, swaps) and a small foreign dataset for merchant B. Everything is
// deterministic (fixed ids, amounts, hashes); times are relative to the simulator clock at start.

import { Random } from './random.js';
import { emptyIds, seedAssets, seedForeignAssets } from './seed/assets.js';
import { seedCatalog } from './seed/catalog.js';
import { seedForeign } from './seed/foreign.js';
import { seedGas } from './seed/gas.js';
import type { SeedIds } from './seed/ids.js';
import { seedDeposits, seedInvoices, seedPayoutsAndTasks, seedSwaps, seedWithdrawals } from './seed/records.js';
import type { SimState } from './world.js';

export { API_KEYS } from './seed/catalog.js';
export type { SeedIds } from './seed/ids.js';

/** Fills catalog, keys and swap rules, then (when `records`) every merchant record. Returns the fixed ids. */
export function seedState(state: SimState, options: { records: boolean }): SeedIds {
  const catalog = seedCatalog(state);
  const now = state.now();
  const rng = new Random(20261120);
  const assets = seedAssets(state, catalog.cryptos, now);
  const foreignAssets = seedForeignAssets(state, catalog.cryptos, now);
  const ids = emptyIds(catalog, assets, foreignAssets);
  if (!options.records) return ids;
  seedInvoices(state, ids, now);
  seedWithdrawals(state, ids, rng, now);
  seedSwaps(state, ids, now);
  seedPayoutsAndTasks(state, ids, rng, now);
  seedDeposits(state, ids, now);
  seedGas(state, ids, rng, now);
  seedForeign(state, ids, now);
  return ids;
}
