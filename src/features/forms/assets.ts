/**
 * The merchant's assets as the forms read them: one read serves every keystroke of every open form for a few
 * seconds, and two forms asking at once share one request (the payment API is rate limited and may be slow).
 */
import type { Asset, PaymentsClient } from '../../payments/index.js';

/** How long a read of the asset list serves the forms' previews. */
const FORM_ASSETS_FRESH_MS = 15_000;

interface Cached {
  at: number;
  read: Promise<Asset[]>;
}

const cache = new WeakMap<object, Cached>();

/**
 * The merchant's assets: the list read at most FORM_ASSETS_FRESH_MS ago, or one read now shared by everyone asking
 * meanwhile. A failed read is not kept (the next ask tries again).
 */
export function formAssets(payments: Pick<PaymentsClient, 'listAssets'>, nowMs: number = Date.now()): Promise<Asset[]> {
  const cached = cache.get(payments);
  if (cached && nowMs - cached.at < FORM_ASSETS_FRESH_MS) return cached.read;
  const read = payments.listAssets();
  const entry = { at: nowMs, read };
  cache.set(payments, entry);
  read.catch(() => {
    if (cache.get(payments) === entry) cache.delete(payments);
  });
  return read;
}
