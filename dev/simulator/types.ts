// Internal record types of the simulator. Money is kept as base-unit integer strings, times as epoch ms; the
// wire shapes (field renames, formats, nulls) are produced only in render.ts.

/** The 15 operations of the merchant payment API. */
export type OperationName =
  | 'createInvoice'
  | 'createInvoiceByCrypto'
  | 'getInvoice'
  | 'getAsset'
  | 'listAssets'
  | 'getWithdrawal'
  | 'listWithdrawals'
  | 'estimateSwap'
  | 'createSwap'
  | 'getSwap'
  | 'createPayout'
  | 'listPayoutTasks'
  | 'getPayoutTask'
  | 'getDeposit'
  | 'listGasDistributions';

/**
 * How create-payout answers (docs/payments-api.md does not show its response): the full record (default), an empty
 * 200 body, a 200 body without an id, or no answer at all (the container is made, the connection is held open, so
 * a client times out: "the outcome is unknown").
 */
export type CreatePayoutAnswer = 'full' | 'empty' | 'no_id' | 'hang';

/** Permissions an API key can carry. */
export type Permission = 'can_payout' | 'can_invoice' | 'withdrawal';

/** An API key and the merchant scope it grants. */
export interface ApiKeyRecord {
  key: string;
  merchantId: string;
  permissions: readonly Permission[];
}

/** A blockchain network (catalog data shared by all merchants). */
export interface NetworkRecord {
  id: string;
  title: string;
  symbol: string;
  chainId: string;
  networkType: string;
  /** Native coin of the network (gas currency). */
  nativeCryptoId: string;
  swapEnabled: boolean;
}

/** A currency on one network (catalog data). The same symbol can exist on several networks. */
export interface CryptoRecord {
  id: string;
  networkId: string;
  title: string;
  symbol: string;
  contractAddress: string | null;
  decimals: number;
  logoURI: string;
  /** USD per token, decimal string. */
  priceUsd: string;
  swapEnabled: boolean;
  /** Minimum swap amount in token units (decimal string), about 10 USD worth. */
  minSwap: string;
}

/** A merchant asset: one crypto on one network, with a wallet and a balance. */
export interface AssetRecord {
  id: string;
  merchantId: string;
  cryptoId: string;
  wallet: string;
  feePercent: string;
  feeUsd: string;
  /** Base units. */
  balance: string;
  /** Base units held back (e.g. by pending withdrawals); balanceForWithdrawal = balance - locked. */
  locked: string;
  createdAt: number;
}

/** An invoice. */
export interface InvoiceRecord {
  id: string;
  merchantId: string;
  status: string;
  usdCents: string;
  productTitle: string;
  extraData: string | null;
  assetId: string | null;
  /** Base units of the asset's crypto; null when no currency is chosen. */
  cryptoAmount: string | null;
  address: string | null;
  createdAt: number;
  expiredAt: number;
}

/** Withdrawal states. */
export type WithdrawalStatus = 'pending' | 'success' | 'failed';

/** A withdrawal from a merchant asset. */
export interface WithdrawalRecord {
  id: string;
  merchantId: string;
  assetId: string;
  status: WithdrawalStatus;
  address: string;
  amount: string;
  isPrivate: boolean;
  /** Service fee in base units of the asset's crypto. */
  serviceFee: string;
  txHash: string | null;
  createdAt: number;
}

/** A swap quote; valid 30 minutes, single use. */
export interface EstimateRecord {
  id: string;
  merchantId: string;
  assetIdFrom: string;
  assetIdTo: string;
  amount: string;
  estimatedAmount: string;
  routeType: 'dex' | 'cex';
  serviceId: string;
  createdAt: number;
  used: boolean;
}

/** Swap states. */
export type SwapStatus = 'new' | 'in_progress' | 'finished' | 'rejected';

/** A swap between two assets of one merchant. */
export interface SwapRecord {
  id: string;
  merchantId: string;
  assetIdFrom: string;
  assetIdTo: string;
  amountFrom: string;
  estimatedAmount: string;
  routeType: 'dex' | 'cex';
  status: SwapStatus;
  amountTo: string | null;
  amountFromInUsd: string | null;
  amountToInUsd: string | null;
  hashFrom: string | null;
  hashTo: string | null;
  /** Gas of the source-network transaction, base units of that network's native coin. */
  gasFrom: string;
  /** Gas of the target-network transaction (cross-network routes only). */
  gasTo: string | null;
  /** Service fee in base units of the source crypto. */
  serviceFee: string;
  createdAt: number;
  /** API-created swaps advance with the simulator clock; seeded ones keep their state. */
  autoAdvance: boolean;
}

/** A mass payout container. */
export interface PayoutRecord {
  id: string;
  merchantId: string;
  assetId: string;
  name: string;
  status: string;
  createdAt: number;
}

/** Payout task states. */
export type TaskStatus = 'pending' | 'failed' | 'success';

/** One payout task. */
export interface PayoutTaskRecord {
  id: string;
  merchantId: string;
  payoutId: string;
  assetId: string;
  type: 'single_tx' | 'multi_tx';
  status: TaskStatus;
  subStatus: string;
  amount: string;
  transferTxHash: string;
  payoutTxHash: string;
  targetsCount: number;
  /** Sum of all gas of the task, base units of the network's native coin. */
  gasAmount: string;
  /** Service fee in base units of the task's crypto. */
  serviceFee: string;
  createdAt: number;
}

/** Deposit states. */
export type DepositStatus = 'success' | 'frozen' | 'refunded';

/** An incoming payment. */
export interface DepositRecord {
  id: string;
  merchantId: string;
  assetId: string;
  status: DepositStatus;
  amount: string;
  txHash: string;
  txFrom: string;
  serviceFee: string;
  /** Created before USD pricing existed: USD fields stay null forever. */
  legacyNoUsd: boolean;
  createdAt: number;
}

/** A gas manager pipeline (one purchase of native coin feeding several distributions). */
export interface GasPipelineRecord {
  id: string;
  merchantId: string;
  status: string;
  createdAt: number;
}

/** Gas distribution states. */
export type GasStatus = 'pending' | 'cancelled' | 'failed' | 'success';

/** One gas top-up of one payment address. */
export interface GasDistributionRecord {
  id: string;
  merchantId: string;
  pipelineId: string;
  networkId: string;
  status: GasStatus;
  subStatus: string | null;
  targetAddress: string;
  /** Empty string when nothing was sent (cancelled rows, missing donor balance). */
  txHash: string;
  /** Native coin credited, base units; null on cancelled rows. */
  topUp: string | null;
  /** Service fee in base units of the donor stablecoin; null on cancelled rows. */
  serviceFee: string | null;
  /** Stablecoin the gas liquidity address pays with. */
  donorCryptoId: string;
  createdAt: number;
  updatedAt: number;
}

/** Kinds of records reachable through getRaw / getRecord. */
export type RecordKind =
  | 'invoice'
  | 'asset'
  | 'withdrawal'
  | 'estimate'
  | 'swap'
  | 'payout'
  | 'task'
  | 'deposit'
  | 'gas';
