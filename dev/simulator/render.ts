// Wire shapes of the API, quirks included: invoices rename network.title to `name`, assets rename
// network.networkType to `chainType`, the gas manager network has only id/title/symbol, payout tasks carry
// fee.network as ONE leg object, swaps as an array; three timestamp spellings. Field order follows docs/payments-api.md.
//
// Asset amounts: `balance` and `balanceForWithdrawal` rows are silent on the unit, so the conventions table rules:
// base-unit integer strings, like withdrawal `asset.balance`. `balanceInUsd` is a decimal USD string.
import { baseUnitsForUsdCents, formatCents, formatUnits, usdCentsOf } from './money.js';
import { formatRfc3339, formatSqlTime } from './time.js';
import type {
  AssetRecord,
  CryptoRecord,
  DepositRecord,
  EstimateRecord,
  GasDistributionRecord,
  InvoiceRecord,
  NetworkRecord,
  PayoutRecord,
  PayoutTaskRecord,
  SwapRecord,
  WithdrawalRecord,
} from './types.js';
import type { SimState } from './world.js';

type Json = Record<string, unknown>;

/** Crypto object (2.1). */
function renderCrypto(crypto: CryptoRecord): Json {
  return {
    id: crypto.id,
    title: crypto.title,
    symbol: crypto.symbol,
    contractAddress: crypto.contractAddress,
    decimals: crypto.decimals,
    logoURI: crypto.logoURI,
  };
}

/** Network object as withdrawals, swaps, tasks and deposits show it. */
function renderNetwork(network: NetworkRecord): Json {
  return {
    id: network.id,
    title: network.title,
    symbol: network.symbol,
    chainId: network.chainId,
    networkType: network.networkType,
  };
}

/** Network object of invoice responses: `name` instead of `title`. */
function renderInvoiceNetwork(network: NetworkRecord): Json {
  return {
    id: network.id,
    name: network.title,
    symbol: network.symbol,
    chainId: network.chainId,
    networkType: network.networkType,
  };
}

/** Network object of asset responses: `chainType` instead of `networkType`. */
function renderAssetNetwork(network: NetworkRecord): Json {
  return {
    id: network.id,
    title: network.title,
    symbol: network.symbol,
    chainId: network.chainId,
    chainType: network.networkType,
  };
}

/** Network object of the gas manager: id, title, symbol only. */
function renderGasNetwork(network: NetworkRecord): Json {
  return { id: network.id, title: network.title, symbol: network.symbol };
}

/** One fee leg; `amountInUsd` null when `withUsd` is false. */
function renderFeeLeg(
  state: SimState,
  cryptoId: string,
  amount: bigint | string,
  options: { charged: boolean; withUsd?: boolean },
): Json {
  const crypto = state.crypto(cryptoId);
  const base = BigInt(amount);
  return {
    amount: base.toString(),
    amountFormatted: formatUnits(base, crypto.decimals),
    currency: crypto.symbol,
    cryptoId: crypto.id,
    networkId: crypto.networkId,
    amountInUsd: options.withUsd === false ? null : state.usd(crypto.id, base),
    isChargedToMerchant: options.charged,
  };
}

/** Sum of leg USD strings (two decimals each) as a two-decimal string. */
function sumUsd(values: readonly string[]): string {
  const cents = values.reduce((sum, value) => sum + BigInt(value.replace('.', '')), 0n);
  return formatCents(cents);
}

/** Invoice (2.4). */
export function renderInvoice(state: SimState, invoice: InvoiceRecord): Json {
  const asset = invoice.assetId ? state.asset(invoice.assetId) : undefined;
  const currency = asset ? state.assetCurrency(asset) : undefined;
  const service =
    asset && invoice.cryptoAmount !== null
      ? renderFeeLeg(state, asset.cryptoId, state.assetServiceFee(asset, BigInt(invoice.cryptoAmount)), {
          charged: true,
        })
      : null;
  return {
    id: invoice.id,
    usdAmount: formatCents(BigInt(invoice.usdCents)),
    status: invoice.status,
    paymentPageLink: `https://pay.example.test/invoice/${invoice.id}`,
    productTitle: invoice.productTitle,
    extraData: invoice.extraData,
    cryptoAmount: invoice.cryptoAmount,
    crypto: currency ? renderCrypto(currency.crypto) : null,
    network: currency ? renderInvoiceNetwork(currency.network) : null,
    fee: {
      network: null,
      service,
      exchange: null,
      totalInUsd: service ? service.amountInUsd : null,
    },
    address: invoice.address,
    expiredAt: formatSqlTime(invoice.expiredAt),
  };
}

/** Available balance of an asset in base units (balance minus what is held back). */
export function availableBalance(asset: AssetRecord): bigint {
  const available = BigInt(asset.balance) - BigInt(asset.locked);
  return available > 0n ? available : 0n;
}

/** Merchant asset (2.5); `balanceForWithdrawal` only in the single-asset response. */
export function renderAsset(state: SimState, asset: AssetRecord, options: { single: boolean }): Json {
  const { crypto, network } = state.assetCurrency(asset);
  const balance = BigInt(asset.balance);
  return {
    id: asset.id,
    wallet: asset.wallet,
    feePercent: asset.feePercent,
    feeUsd: asset.feeUsd,
    balance: balance.toString(),
    balanceInUsd: formatCents(usdCentsOf(balance, crypto.decimals, crypto.priceUsd)),
    ...(options.single ? { balanceForWithdrawal: availableBalance(asset).toString() } : {}),
    crypto: renderCrypto(crypto),
    network: renderAssetNetwork(network),
    createdAt: formatSqlTime(asset.createdAt),
  };
}

/** Withdrawal (2.6); `asset.balance` in base units. */
export function renderWithdrawal(state: SimState, withdrawal: WithdrawalRecord): Json {
  const asset = state.asset(withdrawal.assetId);
  const { crypto, network } = state.assetCurrency(asset);
  const service = renderFeeLeg(state, crypto.id, withdrawal.serviceFee, { charged: true });
  const available = availableBalance(asset);
  return {
    id: withdrawal.id,
    status: withdrawal.status,
    address: withdrawal.address,
    amount: withdrawal.amount,
    amountInUsd: state.usd(crypto.id, withdrawal.amount),
    payer: 'sender',
    isPrivate: withdrawal.isPrivate,
    asset: {
      id: asset.id,
      balance: available.toString(),
      balanceInUsd: state.usd(crypto.id, available),
      wallet: asset.wallet,
    },
    crypto: renderCrypto(crypto),
    network: renderNetwork(network),
    fee: { network: null, service, exchange: null, totalInUsd: service.amountInUsd },
    txHash: withdrawal.txHash,
    createdAt: formatSqlTime(withdrawal.createdAt),
  };
}

/** Swap estimate (2.7). */
export function renderEstimate(estimate: EstimateRecord): Json {
  return {
    id: estimate.id,
    serviceId: estimate.serviceId,
    routeType: estimate.routeType,
    estimatedAmount: estimate.estimatedAmount,
  };
}

/** Swap (2.8); the create response has no `fee`, the get response has one with an array of network legs. */
export function renderSwap(state: SimState, swap: SwapRecord, options: { withFee: boolean }): Json {
  const from = state.asset(swap.assetIdFrom);
  const to = state.asset(swap.assetIdTo);
  const body: Json = {
    id: swap.id,
    amountFrom: swap.amountFrom,
    amountFromInUsd: swap.amountFromInUsd,
    amountTo: swap.amountTo,
    amountToInUsd: swap.amountToInUsd,
    assetIdFrom: from.id,
    assetIdTo: to.id,
    cryptoIdFrom: from.cryptoId,
    cryptoIdTo: to.cryptoId,
    hashFrom: swap.hashFrom,
    hashTo: swap.hashTo,
    status: swap.status,
  };
  if (options.withFee) {
    const fromNetworkId = state.crypto(from.cryptoId).networkId;
    const toNetworkId = state.crypto(to.cryptoId).networkId;
    const legs = [renderFeeLeg(state, state.nativeCrypto(fromNetworkId).id, swap.gasFrom, { charged: true })];
    if (swap.gasTo !== null) {
      legs.push(renderFeeLeg(state, state.nativeCrypto(toNetworkId).id, swap.gasTo, { charged: true }));
    }
    const service = renderFeeLeg(state, from.cryptoId, swap.serviceFee, { charged: true });
    const usd = [...legs, service].map((leg) => String(leg.amountInUsd));
    body.fee = { network: legs, service, exchange: null, totalInUsd: sumUsd(usd) };
  }
  body.createdAt = formatRfc3339(swap.createdAt, swap.id);
  return body;
}

/** Response of createPayout (not shown in docs/payments-api.md; our choice). */
export function renderPayout(payout: PayoutRecord): Json {
  return {
    id: payout.id,
    assetId: payout.assetId,
    name: payout.name,
    status: payout.status,
    createdAt: formatRfc3339(payout.createdAt, payout.id),
  };
}

/** Payout task (2.9); fee.network is ONE leg object (all gas of the task), not part of totalInUsd. */
export function renderPayoutTask(state: SimState, task: PayoutTaskRecord): Json {
  const asset = state.asset(task.assetId);
  const { crypto, network } = state.assetCurrency(asset);
  const gas = renderFeeLeg(state, network.nativeCryptoId, task.gasAmount, { charged: false, withUsd: false });
  const service = renderFeeLeg(state, crypto.id, task.serviceFee, { charged: true });
  return {
    id: task.id,
    type: task.type,
    status: task.status,
    subStatus: task.subStatus,
    payoutId: task.payoutId,
    amount: task.amount,
    amountInUsd: state.usd(crypto.id, task.amount),
    assetId: asset.id,
    crypto: renderCrypto(crypto),
    network: renderNetwork(network),
    transferTxHash: task.transferTxHash,
    payoutTxHash: task.payoutTxHash,
    targetsCount: task.targetsCount,
    fee: { network: gas, service, exchange: null, totalInUsd: service.amountInUsd },
    createdAt: formatRfc3339(task.createdAt, task.id),
  };
}

/** Deposit (2.10); legacy deposits keep null USD fields. */
export function renderDeposit(state: SimState, deposit: DepositRecord): Json {
  const asset = state.asset(deposit.assetId);
  const { crypto, network } = state.assetCurrency(asset);
  const service = renderFeeLeg(state, crypto.id, deposit.serviceFee, {
    charged: true,
    withUsd: !deposit.legacyNoUsd,
  });
  return {
    id: deposit.id,
    status: deposit.status,
    amount: deposit.amount,
    assetId: asset.id,
    crypto: renderCrypto(crypto),
    network: renderNetwork(network),
    txHash: deposit.txHash,
    txFrom: deposit.txFrom,
    fee: { network: null, service, exchange: null, totalInUsd: service.amountInUsd },
    createdAt: formatRfc3339(deposit.createdAt, deposit.id),
  };
}

/** Amount debited from the gas liquidity address: value of the top-up in the donor stablecoin plus the fee. */
function gasCharged(state: SimState, row: GasDistributionRecord): bigint | null {
  if (row.topUp === null || row.serviceFee === null) return null;
  const native = state.nativeCrypto(row.networkId);
  const donor = state.crypto(row.donorCryptoId);
  const topUpCents = usdCentsOf(BigInt(row.topUp), native.decimals, native.priceUsd);
  // Priced through cents so that, with a 1.00 stablecoin, charged.amountInUsd = topUp + fee.service exactly.
  const topUpInDonor = baseUnitsForUsdCents(topUpCents, donor.decimals, donor.priceUsd);
  return topUpInDonor + BigInt(row.serviceFee);
}

/** Gas manager distribution (2.11). */
export function renderGasDistribution(state: SimState, row: GasDistributionRecord): Json {
  const network = state.network(row.networkId);
  const topUp = row.topUp === null ? null : renderFeeLeg(state, network.nativeCryptoId, row.topUp, { charged: false });
  const service =
    row.serviceFee === null ? null : renderFeeLeg(state, row.donorCryptoId, row.serviceFee, { charged: true });
  const chargedAmount = gasCharged(state, row);
  const charged =
    chargedAmount === null ? null : renderFeeLeg(state, row.donorCryptoId, chargedAmount, { charged: true });
  const pipeline = state.pipelines.get(row.pipelineId);
  return {
    id: row.id,
    status: row.status,
    subStatus: row.subStatus,
    network: renderGasNetwork(network),
    targetAddress: row.targetAddress,
    txHash: row.txHash,
    topUp,
    charged,
    fee: { network: null, service, exchange: null, totalInUsd: service ? service.amountInUsd : null },
    pipeline: pipeline
      ? {
          id: pipeline.id,
          status: pipeline.status,
          totalAmountInUsd: pipelineTotalUsd(state, pipeline.id),
          createdAt: formatRfc3339(pipeline.createdAt, pipeline.id),
        }
      : null,
    createdAt: formatRfc3339(row.createdAt, row.id),
    updatedAt: formatRfc3339(row.updatedAt, row.id),
  };
}

/** Total charged (USD) over the distributions of a pipeline. */
function pipelineTotalUsd(state: SimState, pipelineId: string): string {
  const charged: string[] = [];
  for (const row of state.gasRowsOfPipeline(pipelineId)) {
    const amount = gasCharged(state, row);
    if (amount !== null) charged.push(state.usd(row.donorCryptoId, amount));
  }
  return sumUsd(charged);
}
