// The route table: binds each operation name to its method, path, permission, rate limit and handler.
import { getAsset, listAssets } from './assets.js';
import type { OperationRoute } from './context.js';
import { getDeposit } from './deposits.js';
import { listGasDistributions } from './gas.js';
import { createInvoice, createInvoiceByCrypto, getInvoice } from './invoices.js';
import { createPayout, getPayoutTask, listPayoutTasks } from './payouts.js';
import { createSwap, estimateSwap, getSwap } from './swaps.js';
import { getWithdrawal, listWithdrawals } from './withdrawals.js';

export type { OperationRoute } from './context.js';

/** All 15 operations of the API. */
export const ROUTES: readonly OperationRoute[] = [
  { operation: 'createInvoice', method: 'POST', path: '/2.0/merchant/create-invoice', handler: createInvoice },
  {
    operation: 'createInvoiceByCrypto',
    method: 'POST',
    path: '/2.0/merchant/create-invoice-by-crypto',
    handler: createInvoiceByCrypto,
  },
  { operation: 'getInvoice', method: 'GET', path: '/1.0/merchant/invoice-info', handler: getInvoice },
  { operation: 'getAsset', method: 'GET', path: '/1.0/merchant/asset', handler: getAsset },
  { operation: 'listAssets', method: 'GET', path: '/1.0/merchant/assets', handler: listAssets },
  {
    operation: 'getWithdrawal',
    method: 'GET',
    path: '/1.0/merchant/asset-withdrawal-info',
    permission: 'withdrawal',
    handler: getWithdrawal,
  },
  {
    operation: 'listWithdrawals',
    method: 'GET',
    path: '/1.0/merchant/asset-withdrawals',
    permission: 'withdrawal',
    handler: listWithdrawals,
  },
  { operation: 'estimateSwap', method: 'POST', path: '/2.0/swap/estimate', handler: estimateSwap },
  { operation: 'createSwap', method: 'POST', path: '/2.0/swap/create', handler: createSwap },
  { operation: 'getSwap', method: 'GET', path: '/2.0/swap/get', handler: getSwap },
  { operation: 'createPayout', method: 'POST', path: '/2.0/mass-payout/create-payout', handler: createPayout },
  {
    operation: 'listPayoutTasks',
    method: 'GET',
    path: '/2.0/mass-payout/tasks',
    permission: 'can_payout',
    handler: listPayoutTasks,
  },
  {
    operation: 'getPayoutTask',
    method: 'GET',
    path: '/2.0/mass-payout/task',
    permission: 'can_payout',
    rateLimited: true,
    handler: getPayoutTask,
  },
  {
    operation: 'getDeposit',
    method: 'GET',
    path: '/2.0/deposit/get',
    permission: 'can_invoice',
    rateLimited: true,
    handler: getDeposit,
  },
  {
    operation: 'listGasDistributions',
    method: 'GET',
    path: '/2.0/gas-manager/list',
    permission: 'can_invoice',
    rateLimited: true,
    handler: listGasDistributions,
  },
];
