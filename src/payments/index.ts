/** The merchant payment API: one client, typed errors, normalized shapes. */
export * from './client.js';
export * from './errors.js';
export { createPaymentsRequest, paymentsRetryDelayMs, parseRetryAfter, type RetryPolicy, type PaymentsHttpOptions } from './http.js';
export { createPacer, type Pacer } from './pacer.js';
export type { CursorPage, Fee, FeeLeg, Network, Crypto } from './schemas.js';
export { parseRfc3339Timestamp, parseSqlUtcTimestamp } from './schemas.js';
