/**
 * The freeze in the lowdb state file (`freeze`): the record and its trail. Each change is one serialized, fsynced
 * `update` of the store; the swap decision and the payout claim read `freeze` inside their own update, so a
 * decision is judged wholly before a freeze or wholly after it.
 */

import {
  activeFreeze,
  applyFreeze,
  applyUnfreezeVote,
  claimExpiredFreezes,
  type FreezeState,
  freezeTrailSince,
  hasExpiredToClaim,
  recordAnnouncement,
} from '../../features/freeze/rules.js';
import type { FreezeRepository } from '../../features/repositories.js';
import { cloneJson } from '../clone-json.js';
import type { Store } from './state-file.js';

/** The part of the state this repository owns. */
export interface WithFreeze {
  freeze: FreezeState;
}

/** The freeze repository over the lowdb store that holds `freeze`. */
export function createLowdbFreezeRepository(store: Store<WithFreeze>): FreezeRepository {
  return {
    async currentFreeze(now) {
      const current = activeFreeze(store.read().freeze, now);
      return current && cloneJson(current);
    },
    freeze: (request) => store.update((state) => applyFreeze(state.freeze, request)),
    voteUnfreeze: (vote, quorum) => store.update((state) => applyUnfreezeVote(state.freeze, vote, quorum)),
    listFreezeTrail: async (since, now) => freezeTrailSince(store.read().freeze, since, now),
    // Looked at first without writing: the expiry job asks every few seconds and almost always finds nothing.
    claimExpiredFreezes: async (now) =>
      hasExpiredToClaim(store.read().freeze, now)
        ? store.update((state) => claimExpiredFreezes(state.freeze, now))
        : [],
    recordFreezeAnnouncement: (frozenAt, announcement) =>
      store.update((state) => recordAnnouncement(state.freeze, frozenAt, announcement)),
  };
}
