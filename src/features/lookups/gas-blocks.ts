import {
  actions,
  button,
  context,
  header,
  linesToSections,
  nextSlice,
  type SlackMessage,
  section,
} from '../../blocks/common.js';
import { formatFeeLeg, formatNetwork, formatStatus, formatUtc } from '../../blocks/format.js';
import { ACTION_IDS, type GasPageValue } from '../../blocks/ids.js';
import { code, shorten } from '../../blocks/mrkdwn.js';
import type { CursorPage, GasDistribution } from '../../payments/index.js';

/** Distributions shown per message; the API's fixed page of 50 is shown in slices of this size. */
export const GAS_ROWS_PER_MESSAGE = 20;

function gasLine(row: GasDistribution): string {
  const topUp = row.topUp ? formatFeeLeg(row.topUp) : '—';
  const charged = row.charged ? formatFeeLeg(row.charged) : '—';
  return (
    `${formatStatus(row.status, row.subStatus)} · ${formatNetwork(row.network)} · target ${code(shorten(row.targetAddress, 8))}\n` +
    `top-up ${topUp} · charged ${charged} · ${formatUtc(row.createdAt)} · ${code(row.id)}`
  );
}

function scopeNote(status: string | undefined): string {
  if (status === 'cancelled') return 'Cancelled top-ups were unnecessary: nothing was sent or charged.';
  if (status) return `Only ${status} top-ups.`;
  return 'Cancelled top-ups are left out; ask for them with `gas cancelled`.';
}

/**
 * `/treasury gas [status]`. The API promises no order, so each slice is sorted newest-first for reading;
 * that sort is cosmetic and says nothing about other pages.
 */
export function buildGasList(page: CursorPage<GasDistribution>, request: GasPageValue): SlackMessage {
  const title = `Gas top-ups${request.status ? ` · ${request.status}` : ''}`;
  const slice = page.items
    .slice(request.offset, request.offset + GAS_ROWS_PER_MESSAGE)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  if (slice.length === 0) return { text: `${title}: none`, blocks: [header(title), section('No gas top-ups match.')] };
  const next = nextSlice(request, page, GAS_ROWS_PER_MESSAGE);
  return {
    text: `${title}: ${slice.length} shown`,
    blocks: [
      header(title),
      ...linesToSections(slice.map(gasLine), '\n\n'),
      context(scopeNote(request.status), next ? 'More on the next page.' : 'That is all.'),
      ...actions(next ? [button('Next page ▶', ACTION_IDS.gasPage, JSON.stringify(next))] : []),
    ],
  };
}
