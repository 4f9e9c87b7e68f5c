/** The merchant payment API: one client, typed errors, normalized shapes. */
export * from './client.js';
export * from './errors.js';
export {
  type PaymentsHttpOptions,
  parseRetryAfter,
  paymentsRetryDelayMs,
  type RetryPolicy,
} from './http.js';
export { createPacer, type Pacer } from './pacer.js';
export type { Crypto, CursorPage, Fee, FeeLeg, Network } from './schemas.js';
