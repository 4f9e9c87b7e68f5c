/**
 * Forms' submission claims in the lowdb state file (`formSubmissions`, view id → when): one serialized, fsynced
 * update per claim, which also drops the other claims older than a day so the file never grows without bound (a
 * view claimed once stays claimed while it is asked about).
 */
import type { FormSubmissionRepository } from '../../features/repositories.js';
import type { Store } from './state-file.js';

/** How long a claim is kept: a form is long closed by then (Slack keeps a view open for hours at most). */
const FORM_CLAIM_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The part of the state this repository owns. */
export interface WithFormSubmissions {
  formSubmissions: Record<string, string>;
}

/** The form submission claims over the lowdb store that holds `formSubmissions`. */
export function createLowdbFormSubmissionRepository(store: Store<WithFormSubmissions>): FormSubmissionRepository {
  return {
    claim: (viewId, at) =>
      store.update((state) => {
        const oldest = at.getTime() - FORM_CLAIM_RETENTION_MS;
        for (const [id, claimedAt] of Object.entries(state.formSubmissions))
          if (id !== viewId && Date.parse(claimedAt) < oldest) delete state.formSubmissions[id];
        if (Object.hasOwn(state.formSubmissions, viewId)) return false;
        state.formSubmissions[viewId] = at.toISOString();
        return true;
      }),
  };
}
