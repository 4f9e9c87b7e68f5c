// The swap form as the end-to-end tests drive it: its input ids, what a person enters, and a wait for what the open
// form shows (its blocks as text plus the raw view, so the options of its menus count too).
import type { PaymentsSimulator } from '../../../dev/simulator/index.js';
import { blocksToText } from './blocks-text.js';
import type { OpenedView, SlackStandIn } from './slack-stand-in.js';

/** The swap form's inputs (block id = action id). */
export const SWAP_FORM = {
  from: 'form_swap_from',
  to: 'form_swap_to',
  amount: 'form_swap_amount',
  channel: 'form_swap_channel',
} as const;

/** What a person entered: USDT on Ethereum into USDC on Ethereum, and `amount`, as a view's `state.values`. */
export function swapFormEntry(simulator: PaymentsSimulator, amount: string) {
  const F = SWAP_FORM;
  return {
    [F.from]: { [F.from]: simulator.ids.assets.usdtEth },
    [F.to]: { [F.to]: simulator.ids.assets.usdcEth },
    [F.amount]: { [F.amount]: amount },
  };
}

/** An opened view as text: its blocks as a person reads them, then the raw view. */
export function viewText(view: OpenedView | undefined): string {
  return `${blocksToText((view?.view.blocks as unknown[]) ?? [])}\n${JSON.stringify(view?.view ?? {})}`;
}

/** The view `id` as the stand-in holds it now (after every views.update). */
export function currentView(slack: SlackStandIn, id: string): OpenedView {
  return slack.views().find((v) => v.id === id)!;
}

/** Waits until the view `id` shows `pattern`; resolves with it. */
export function waitForForm(slack: SlackStandIn, id: string, pattern: RegExp, timeoutMs = 10_000): Promise<OpenedView> {
  return slack.waitFor(
    () => (pattern.test(viewText(currentView(slack, id))) ? currentView(slack, id) : undefined),
    timeoutMs,
    `the form showing ${pattern}`,
  );
}
