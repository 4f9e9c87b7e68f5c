// The fixed ids of the seed dataset, and the names and time units its parts share.

/** Fixed ids of the seed dataset, grouped by kind. Lists are newest first unless noted. */
export interface SeedIds {
  merchants: { main: string; other: string };
  networks: { ethereum: string; bsc: string; polygon: string };
  cryptos: Record<CryptoName, string>;
  assets: Record<AssetName, string>;
  invoices: { usdOnly: string; withAsset: string; byCrypto: string; expired: string };
  withdrawals: { all: string[]; pending: string[]; success: string[]; failed: string[] };
  swaps: { finished: string[]; rejected: string; inProgress: string };
  payouts: {
    octoberSalaries: string;
    affiliateRewards: string;
    supplierSettlements: string;
    refunds: string;
    novemberSalaries: string;
  };
  tasks: { all: string[]; pending: string[]; failed: string[]; success: string[] };
  deposits: { success: string[]; frozen: string; refunded: string; legacyNoUsd: string };
  gas: {
    /** Every row of merchant A in list order (by id), cancelled ones included. */
    all: string[];
    success: string[];
    pending: string[];
    failed: string[];
    cancelled: string[];
    /** subStatus not_enough_donor_balance, any status. */
    notEnoughDonorBalance: string[];
    /** A not_enough_donor_balance row whose status is pending (not failed). */
    notEnoughDonorPending: string;
    /** A not_enough_donor_balance row that the default list shows on its SECOND page. */
    notEnoughDonorOnSecondPage: string;
    pipelines: string[];
  };
  /** Records of merchant B: to merchant A's keys they must look like unknown ids. */
  foreign: {
    assetUsdt: string;
    assetEth: string;
    withdrawal: string;
    swap: string;
    payout: string;
    task: string;
    deposit: string;
    invoice: string;
    gas: string;
  };
}

/** The seed's cryptos by short name. */
export type CryptoName = 'eth' | 'bnb' | 'pol' | 'usdtEth' | 'usdtBsc' | 'usdcEth' | 'usdcPolygon' | 'daiEth';
/** The cryptos merchant A holds as assets (every one but POL). */
export type AssetName = Exclude<CryptoName, 'pol'>;

/** Time units of the seed's relative times, in ms. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
