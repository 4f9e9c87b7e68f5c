/** The payment API answers again after an `api_down` alert: a note, owned by nobody (the outage's alert resolves). */
import { z } from 'zod';
import { header, type SlackMessage, section } from '../../../blocks/common.js';
import { formatUtc } from '../../../blocks/format.js';
import { duration, WATCHER_OBJECT } from './api-down.js';
import { defineAlertKind } from './kind.js';

export const ApiRecoveredFacts = z.object({
  kind: z.literal('api_recovered'),
  since: z.string(),
  recoveredAt: z.string(),
});
export type ApiRecoveredFacts = z.infer<typeof ApiRecoveredFacts>;

function plain(f: ApiRecoveredFacts): SlackMessage {
  const since = new Date(f.since);
  const at = new Date(f.recoveredAt);
  return {
    text: 'The payment API answers again: failure alerts are back.',
    blocks: [
      header(':white_check_mark: The payment API answers again'),
      section(
        `The alert poller reads every source again since ${formatUtc(at)}, after ${duration(since, at)} without. Failures from that time are alerted now.`,
      ),
    ],
  };
}

export const apiRecovered = defineAlertKind({
  facts: ApiRecoveredFacts,
  route: 'watcher',
  objects: () => [WATCHER_OBJECT],
  failure: false,
  plain,
});
