/**
 * The store contract tests' decision: the simplest judge there is (the first decision on a pending quote wins,
 * any later one is refused), run through the repository's decideQuote. The repository's job under test is that
 * the judge sees the quote as committed and that its change is atomic; the approval rules themselves are
 * table-tested in test/features/swaps and end to end through clicks.
 */

import type { SwapQuoteRepository } from '../../src/features/repositories.js';
import type { AuditEntry, SwapQuote } from '../../src/features/swaps/quote.js';

export async function claimDecision(
  repository: Pick<SwapQuoteRepository, 'decideQuote'>,
  id: string,
  outcome: 'approving' | 'rejected' | 'expired',
  by: string,
  at: Date,
  entry: AuditEntry,
): Promise<{ claimed: boolean; quote: SwapQuote }> {
  const { decision, quote } = await repository.decideQuote(id, new Date(0), (stored) =>
    stored.status === 'pending'
      ? {
          ok: true,
          change: {
            status: outcome,
            approvals: outcome === 'approving' ? [{ userId: by, at: at.toISOString() }] : [],
            decided: { by, at: at.toISOString() },
            entry,
          },
        }
      : { ok: false, reason: 'already_decided', notice: 'already decided' },
  );
  return { claimed: decision.ok, quote };
}
