/**
 * Requests to create a payout container in the lowdb state file (`payouts`, keyed by request id). Each change is
 * one serialized, fsynced `update` of the store, so a claim and its check cannot interleave with another, and a
 * claim counts only once it is on disk. The changes themselves are features/payouts/rules.ts's pure functions.
 */

import type { FreezeState } from '../../features/freeze/rules.js';
import {
  applyPayoutOutcome,
  cancelPayoutRequest,
  claimPayoutSend,
  frozenForClaim,
  PAYOUT_REQUEST_RETENTION_MS,
  type PayoutRequest,
} from '../../features/payouts/rules.js';
import type { PayoutRepository } from '../../features/repositories.js';
import { compareText } from '../../kernel/compare.js';
import { StoreError } from '../../kernel/store-error.js';
import { cloneJson } from '../clone-json.js';
import type { Store } from './state-file.js';

/** The part of the state this repository owns, and the freeze it reads (absent in a store without one). */
interface WithPayouts {
  payouts: Record<string, PayoutRequest>;
  freeze?: FreezeState;
}

/** The payout request repository over the lowdb store that holds `payouts`. */
export function createLowdbPayoutRepository(store: Store<WithPayouts>): PayoutRepository {
  // Own keys only: an id such as `constructor` must never find something Object.prototype has.
  const find = (requests: Record<string, PayoutRequest>, id: string): PayoutRequest | undefined =>
    Object.hasOwn(requests, id) ? requests[id] : undefined;

  return {
    async saveRequest(request) {
      await store.update((state) => {
        if (find(state.payouts, request.id)) throw new StoreError(`payout request ${request.id} already exists`);
        state.payouts[request.id] = cloneJson(request);
        const cutoff = Date.parse(request.requestedAt) - PAYOUT_REQUEST_RETENTION_MS;
        for (const [id, kept] of Object.entries(state.payouts))
          if (Date.parse(kept.requestedAt) < cutoff) delete state.payouts[id];
      });
    },

    async getRequest(id) {
      const request = find(store.read().payouts, id);
      return request && cloneJson(request);
    },

    async claimSend(id, by, at, maxAgeMs) {
      return store.update((state) => {
        const request = find(state.payouts, id);
        if (!request) return { claimed: false };
        const frozen = frozenForClaim(request, state.freeze?.current, at);
        if (frozen) return { claimed: false, frozen: cloneJson(frozen), request: cloneJson(request) };
        const claimed = claimPayoutSend(request, by, at, maxAgeMs);
        return claimed
          ? { claimed: true, request: cloneJson(request) }
          : { claimed: false, request: cloneJson(request) };
      });
    },

    async recordOutcome(id, outcome, at) {
      return store.update((state) => {
        const request = find(state.payouts, id);
        if (!request) return { recorded: false };
        const recorded = applyPayoutOutcome(request, outcome, at);
        return { recorded, request: cloneJson(request) };
      });
    },

    async cancel(id, by, at) {
      return store.update((state) => {
        const request = find(state.payouts, id);
        if (!request) return { cancelled: false };
        const cancelled = cancelPayoutRequest(request, by, at);
        return { cancelled, request: cloneJson(request) };
      });
    },

    async listRequestsSince(since) {
      return Object.values(store.read().payouts)
        .filter((request) => Date.parse(request.requestedAt) >= since.getTime())
        .sort((a, b) => compareText(a.requestedAt, b.requestedAt) || compareText(a.id, b.id))
        .map(cloneJson);
    },
  };
}
