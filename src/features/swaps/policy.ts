/**
 * The swap approval policy that grows with the risk, as pure functions: what a quote is worth in USD, the tiers
 * of distinct approvers (SWAP_POLICY), the maximum (SWAP_MAX_USD) and the rolling daily limit
 * (SWAP_DAILY_LIMIT_USD), the policy as fixed on each quote (PolicySnapshot), and the quorum rules a click is
 * judged by. Money is exact: BigInt cents, never a float; cents are stored as digit strings (JSON has no bigint).
 *
 * Unknown is never cheap: a quote whose USD value cannot be told is treated as above every tier and every
 * limit (fail closed), with a reason a person can read.
 *
 * One file per job, gathered here so callers import the policy from one place: the USD value (policy-value.ts),
 * the configuration (policy-config.ts), what an amount needs (policy-limits.ts), the snapshot fixed on a quote
 * (policy-snapshot.ts), and approvers and the quorum (policy-quorum.ts).
 */

export * from './policy-config.js';
export * from './policy-limits.js';
export * from './policy-quorum.js';
export * from './policy-snapshot.js';
export * from './policy-value.js';
