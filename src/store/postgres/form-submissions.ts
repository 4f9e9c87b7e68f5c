/**
 * Forms' submission claims in PostgreSQL (migration 9): one row per view id. The claim is one
 * `INSERT … ON CONFLICT DO NOTHING RETURNING`, so of two replicas given the same view exactly one gets the row;
 * claims older than a day (but never the one being claimed) are deleted in the same statement.
 */
import type { FormSubmissionRepository } from '../../features/repositories.js';
import type { Database } from './database.js';

/** How long a claim is kept, in seconds (as the lowdb file: a day). */
const RETENTION_SECONDS = 24 * 60 * 60;

/** The form submission claims over the store's database. */
export function formSubmissionsOver(db: Database): FormSubmissionRepository {
  return {
    async claim(viewId, at) {
      const { rows } = await db.query<{ view_id: string }>(
        'claiming a form submission',
        `WITH pruned AS (
           DELETE FROM form_submissions
           WHERE claimed_at < $2::timestamptz - make_interval(secs => $3) AND view_id <> $1
         )
         INSERT INTO form_submissions (view_id, claimed_at) VALUES ($1, $2)
         ON CONFLICT (view_id) DO NOTHING RETURNING view_id`,
        [viewId, at.toISOString(), RETENTION_SECONDS],
      );
      return rows.length === 1;
    },
  };
}
