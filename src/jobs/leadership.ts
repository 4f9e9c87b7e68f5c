/**
 * The leadership gate: which process runs the leader-only jobs. On PostgreSQL the replicas share one lease (an
 * advisory lock, src/store/postgres/lease.ts) and its holder leads; on the state file the single process always leads.
 */

import type { PollLeadership } from '../features/alerts/poller/index.js';
import type { BotMetrics } from '../metrics/index.js';

/** The lease as the jobs see it: src/store/open.ts builds it from the PostgreSQL lease. */
export type Leadership = PollLeadership;

/** Asked before each run of a leader-only job. */
export interface LeadershipGate {
  /** Several processes share the store (PostgreSQL): some work is left to the one holding the lease. */
  readonly replicated: boolean;
  /** Whether this process leads now (on replicas: takes or keeps the lease). */
  isLeader(): Promise<boolean>;
}

/** The gate over `lease`; without one (the state file) this process is always the leader. */
export function createLeadershipGate(
  lease: Leadership | undefined,
  metrics?: Pick<BotMetrics, 'leaseHeld'>,
): LeadershipGate {
  if (!lease) {
    // The single process always leads.
    metrics?.leaseHeld(true);
    return { replicated: false, isLeader: async () => true };
  }
  return {
    replicated: true,
    async isLeader() {
      // A lease that cannot be asked is not held (the poll is skipped, so the gauge says so too).
      const held = await lease.tryLead().catch((error: unknown) => {
        metrics?.leaseHeld(false);
        throw error;
      });
      metrics?.leaseHeld(held);
      return held;
    },
  };
}
