/**
 * The second factor in the lowdb state file (`secondFactor`): each person's enrolment, kept as stored and checked
 * when used (a damaged one is handed to the rules as `damaged`, never dropped), the trail, and the queue of Slack
 * deletions of enrolment DMs. Each change is one
 * serialized, fsynced `update` of the store, so two codes of one person are judged one after the other.
 */
import type { SecondFactorRepository } from '../../features/repositories.js';
import {
  decodeEnrolment,
  SECOND_FACTOR_TRAIL_RETENTION_MS,
  type StoredEnrolment,
  trailSince,
} from '../../features/second-factor/rules.js';
import { cloneJson } from '../clone-json.js';
import type { SecondFactorState } from './bot-state.js';
import type { Store } from './state-file.js';

/** The part of the state this repository owns. */
export interface WithSecondFactor {
  secondFactor: SecondFactorState;
}

function storedOf(state: SecondFactorState, userId: string): StoredEnrolment {
  if (!Object.hasOwn(state.people, userId)) return { kind: 'none' };
  return decodeEnrolment(cloneJson(state.people[userId]), userId);
}

/** The second-factor repository over the lowdb store that holds `secondFactor`. */
export function createLowdbSecondFactorRepository(store: Store<WithSecondFactor>): SecondFactorRepository {
  return {
    readEnrolment: async (userId) => storedOf(store.read().secondFactor, userId),
    changeEnrolment: (userId, change) =>
      store.update((state) => {
        const part = state.secondFactor;
        const decided = change(storedOf(part, userId));
        if (decided.next === 'delete') delete part.people[userId];
        else if (decided.next !== 'keep') part.people[userId] = cloneJson(decided.next);
        for (const deletion of decided.deletions ?? [])
          if (!Object.hasOwn(part.slackDeletions, deletion.id)) part.slackDeletions[deletion.id] = cloneJson(deletion);
        if (decided.events.length > 0) {
          part.trail.push(...cloneJson(decided.events));
          const cutoff = Date.parse(decided.events[0]?.at ?? '') - SECOND_FACTOR_TRAIL_RETENTION_MS;
          if (Number.isFinite(cutoff)) part.trail = part.trail.filter((entry) => Date.parse(entry.at) >= cutoff);
        }
        return decided.result;
      }),
    listSecondFactorTrail: async (since) => trailSince(store.read().secondFactor.trail, since),
    listPendingEnrolments: async () =>
      Object.entries(store.read().secondFactor.people)
        .filter(([, raw]) => (raw as { state?: unknown } | null)?.state === 'pending')
        .map(([userId]) => userId),
    listSlackDeletions: async (now) =>
      Object.values(store.read().secondFactor.slackDeletions)
        .filter((deletion) => now === undefined || Date.parse(deletion.dueAt) <= now.getTime())
        .sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || a.id.localeCompare(b.id))
        .map((deletion) => cloneJson(deletion)),
    finishSlackDeletion: (id) =>
      store.update((state) => {
        const queue = state.secondFactor.slackDeletions;
        if (!Object.hasOwn(queue, id)) return false;
        delete queue[id];
        return true;
      }),
    postponeSlackDeletion: (id, failed) =>
      store.update((state) => {
        const deletion = state.secondFactor.slackDeletions[id];
        if (deletion && Object.hasOwn(state.secondFactor.slackDeletions, id)) Object.assign(deletion, failed);
      }),
  };
}
