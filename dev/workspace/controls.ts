/** The local workspace's control panel (what it can do to the simulator, Slack and the clock) and its live activity. */
import type { PaymentsSimulator } from '../simulator/index.js';
import { formatUnits } from '../simulator/money.js';
import type { SlackStandIn } from './slack-stand-in.js';
import type { SocketModeStandIn } from './socket-mode-stand-in.js';

/** What the control panel can do to the simulator, Slack and the clock. */
export interface Control {
  id: string;
  label: string;
  description: string;
  /** The heading the page shows it under. */
  group: 'Payment service' | 'Slack' | 'Slack connection (Socket Mode)' | 'Daily digest' | 'Clock';
  /**
   * For a control that acts on one thing the person picks (a pending row): what there is to pick now, the
   * default first. The page shows them as a menu next to the button.
   */
  choices?(): ControlChoice[];
  /**
   * Says what happened; throws (or rejects) with a plain reason when it cannot act now. `choice` is the id of one of
   * `choices`. A control that waits for the bot (posting the digest) resolves once it is done.
   */
  run(choice?: string): string | Promise<string>;
}

/** One thing a control can act on. */
export interface ControlChoice {
  id: string;
  label: string;
}

export interface ControlDeps {
  simulator: PaymentsSimulator;
  slack: SlackStandIn;
  /** Socket Mode: the connection the bot holds, which the page can drop or refresh as Slack does. */
  socket?: SocketModeStandIn | undefined;
  /** Where the poller posts alerts. */
  alertChannel: string;
  shiftClock: (ms: number) => void;
  /** Posts a digest now, marked as on request (the bot's DigestService.postNow); resolves with what happened. */
  postDigestNow?: () => Promise<string>;
}

export function createControls(deps: ControlDeps): Control[] {
  const { simulator, slack, socket } = deps;
  const nextPoll = 'The alert arrives in #treasury-alerts at the next poll (within 10 seconds).';
  const watch = "Watch the bot's connection at the top of the sidebar.";
  const connected = (): SocketModeStandIn => {
    if (!socket?.connected())
      throw new Error('The bot has no connection open right now (it is reconnecting); try again in a moment.');
    return socket;
  };
  // Rows made stuck here, newest last: "Let it succeed" offers them first.
  const madeStuck: string[] = [];
  const pendingChoices = (): Array<ControlChoice & { kind: 'withdrawal' | 'gas'; rowId: string }> => {
    const rows = simulator.pendingRows();
    const rank = (id: string) => madeStuck.lastIndexOf(id);
    const ours = rows.filter((row) => rank(row.id) >= 0).sort((a, b) => rank(b.id) - rank(a.id));
    const others = rows.filter((row) => rank(row.id) < 0);
    return [...ours, ...others].map((row) => ({
      id: `${row.kind}:${row.id}`,
      kind: row.kind,
      rowId: row.id,
      label: `${row.kind === 'gas' ? 'Gas top-up' : 'Withdrawal'} ${row.id.slice(0, 8)}… · ${row.what} · pending ${pendingFor(simulator.now() - row.createdAt)}`,
    }));
  };
  const assetChoices = (): ControlChoice[] =>
    simulator.merchantAssets().map((asset) => ({
      id: asset.id,
      label: `${asset.symbol}@${asset.network} · ${formatUnits(asset.balance, asset.decimals)} ${asset.symbol}`,
    }));
  const moveBalance = (choice: string | undefined, change: (balance: bigint) => bigint, what: string): string => {
    const assets = simulator.merchantAssets();
    const asset =
      choice === undefined
        ? (assets.find((a) => a.symbol === 'USDT') ?? assets[0])
        : assets.find((a) => a.id === choice);
    if (!asset) throw new Error('That asset is not in the list any more; pick another.');
    const after = change(asset.balance);
    simulator.setAssetBalance(asset.id, after);
    return `${asset.symbol}@${asset.network} ${what}: ${formatUnits(after, asset.decimals)} ${asset.symbol} now. A threshold on it ("/treasury threshold ${asset.symbol}@${asset.network} below …") is checked at the next poll (within 10 seconds).`;
  };
  const invoiceChoices = (): ControlChoice[] =>
    simulator.pendingInvoices().map((invoice) => ({
      id: invoice.id,
      label: `$${invoice.usdAmount}${invoice.productTitle ? ` · ${invoice.productTitle.slice(0, 40)}` : ''} · ${invoice.id.slice(0, 8)}…`,
    }));
  const payments: Control[] = [
    {
      id: 'invoice-paid',
      label: 'An invoice gets paid',
      description: 'The pending invoice you pick (the newest first) is paid in full, as the payment page would report.',
      group: 'Payment service',
      choices: invoiceChoices,
      run: (choice) => {
        const pending = simulator.pendingInvoices();
        const invoice = choice === undefined ? pending[0] : pending.find((i) => i.id === choice);
        if (!invoice)
          throw new Error(
            pending.length === 0
              ? 'No invoice is pending: make one first (/treasury invoice $49.99 Pro plan).'
              : 'That invoice is no longer pending; pick another.',
          );
        simulator.setInvoiceStatus(invoice.id, 'paid');
        return `Invoice ${invoice.id.slice(0, 8)}… ($${invoice.usdAmount}) is paid. The bot checks a new invoice every 2 minutes and then tells whoever made it in a direct message (Move the clock 2 minutes to see it now).`;
      },
    },
    {
      id: 'balance-drops',
      label: 'Drain a balance',
      description: 'The asset you pick loses 95 % of its balance (a big payout went out).',
      group: 'Payment service',
      choices: assetChoices,
      run: (choice) => moveBalance(choice, (balance) => balance / 20n, 'dropped to 5 %'),
    },
    {
      id: 'balance-recovers',
      label: 'Top a balance up',
      description: 'The asset you pick receives 20 times its balance (a top-up arrived).',
      group: 'Payment service',
      choices: assetChoices,
      run: (choice) => moveBalance(choice, (balance) => (balance === 0n ? 10n ** 24n : balance * 21n), 'topped up'),
    },
    {
      id: 'withdrawal-fails',
      label: 'Make a withdrawal fail',
      description: 'A withdrawal created now fails on the blockchain.',
      group: 'Payment service',
      run: () => {
        const row = simulator.addWithdrawal({ status: 'failed' });
        return `Withdrawal ${row.id.slice(0, 8)}… failed. ${nextPoll}`;
      },
    },
    {
      id: 'task-fails',
      label: 'Make a payout task fail',
      description: 'A mass-payout task created now fails.',
      group: 'Payment service',
      run: () => {
        const row = simulator.addPayoutTask({ status: 'failed' });
        return `Payout task ${row.id.slice(0, 8)}… failed. ${nextPoll}`;
      },
    },
    {
      id: 'gas-short',
      label: 'Gas top-up: donor balance too low',
      description: 'A gas top-up fails with not_enough_donor_balance.',
      group: 'Payment service',
      run: () => {
        const row = simulator.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
        return `Gas top-up ${row.id.slice(0, 8)}… failed for lack of donor balance. ${nextPoll}`;
      },
    },
    {
      id: 'withdrawal-stuck',
      label: 'Make a withdrawal stuck',
      description:
        'A withdrawal that has been pending for 3 hours (longer than STUCK_WITHDRAWAL_AFTER, 2 h by default).',
      group: 'Payment service',
      run: () => {
        const row = simulator.addWithdrawal({ status: 'pending', createdAt: simulator.now() - 3 * HOUR_MS });
        madeStuck.push(row.id);
        return `Withdrawal ${row.id.slice(0, 8)}… has been pending for 3 hours. Its stuck alert arrives in #treasury-alerts at the next poll (within 10 seconds).`;
      },
    },
    {
      id: 'gas-stuck',
      label: 'Make a gas top-up stuck',
      description: 'A gas top-up that has been pending for 2 hours (longer than STUCK_GAS_AFTER, 1 h by default).',
      group: 'Payment service',
      run: () => {
        const row = simulator.addGasDistribution({ status: 'pending', createdAt: simulator.now() - 2 * HOUR_MS });
        madeStuck.push(row.id);
        return `Gas top-up ${row.id.slice(0, 8)}… has been pending for 2 hours. Its stuck alert arrives in #treasury-alerts at the next poll (within 10 seconds).`;
      },
    },
    {
      id: 'stuck-succeeds',
      label: 'Let it succeed',
      description:
        'The pending withdrawal or gas top-up you pick goes through (success, with a transaction hash): its stuck alert resolves itself at the next poll.',
      group: 'Payment service',
      choices: () => pendingChoices().map(({ id, label }) => ({ id, label })),
      run: (choice) => {
        const choices = pendingChoices();
        if (choices.length === 0) throw new Error('Nothing is pending: make a withdrawal or a gas top-up stuck first.');
        const chosen = choice === undefined ? choices[0] : choices.find((c) => c.id === choice);
        if (!chosen) throw new Error('That one is no longer pending; pick another.');
        simulator.completePending(chosen.kind, chosen.rowId);
        const what = chosen.kind === 'gas' ? 'Gas top-up' : 'Withdrawal';
        return `${what} ${chosen.rowId.slice(0, 8)}… succeeded. Its stuck alert resolves itself at the next poll (within 10 seconds).`;
      },
    },
    {
      id: 'api-down',
      label: 'Take the payment API down for a minute',
      description:
        'Every API request answers 503 for 60 seconds: commands explain it, the poller says so after 3 failed polls.',
      group: 'Payment service',
      run: () => {
        simulator.takeDown(60_000);
        return 'The payment API answers 503 for the next 60 seconds.';
      },
    },
  ];
  const slackControls: Control[] = [
    {
      id: 'slack-ratelimited',
      label: 'Make Slack answer "ratelimited"',
      description: 'The next 3 chat.postMessage calls get HTTP 429 with Retry-After: 20.',
      group: 'Slack',
      run: () => {
        slack.failNext('chat.postMessage', { status: 429, retryAfter: 20 }, 3);
        return 'The next 3 messages the bot posts are refused with ratelimited (Retry-After 20 s); alerts wait and then arrive.';
      },
    },
    {
      id: 'lose-alert-answer',
      label: "Lose Slack's next answer to an alert",
      description:
        'Slack posts the next alert, but its answer never reaches the bot. At the next poll the bot finds the alert in the channel and does not post it again.',
      group: 'Slack',
      run: () => {
        // The post is made, then the connection is cut before the answer: the bot cannot tell whether it arrived.
        slack.failNext('chat.postMessage', { dropAnswer: true }, 1, { channel: deps.alertChannel });
        return 'Slack will post the next alert and lose its answer. Make a withdrawal fail: the alert appears once, and is still there once after the next poll.';
      },
    },
  ];
  const connection: Control[] = socket
    ? [
        {
          id: 'socket-drop',
          label: 'Slack drops the connection',
          description:
            'The connection is cut without a word, as when the network fails: the bot opens a new one at once.',
          group: 'Slack connection (Socket Mode)',
          run: () => {
            connected().dropConnection();
            return `Slack dropped the connection; the bot opens a new one. ${watch}`;
          },
        },
        {
          id: 'socket-refresh',
          label: 'Slack asks to refresh (refresh_requested)',
          description: 'Slack asks the bot to reconnect, as it does routinely every few hours.',
          group: 'Slack connection (Socket Mode)',
          run: () => {
            connected().sendDisconnect('refresh_requested');
            return `Slack asked the bot to reconnect (refresh_requested). ${watch}`;
          },
        },
        {
          id: 'socket-open-fails',
          label: 'apps.connections.open fails twice (500, then a reset)',
          description:
            'Slack drops the connection and fails the next two attempts to open one: HTTP 500, then a network reset. The bot keeps trying.',
          group: 'Slack connection (Socket Mode)',
          run: () => {
            const link = connected();
            slack.failNext('apps.connections.open', { status: 500 });
            slack.failNext('apps.connections.open', { reset: true });
            link.dropConnection();
            return `Slack dropped the connection and fails the next two reconnects (HTTP 500, then a reset); the bot is back within a few seconds. ${watch}`;
          },
        },
      ]
    : [];
  const clock: Control[] = [
    {
      id: 'clock-2m',
      label: 'Move the clock 2 minutes',
      description:
        'Time jumps 2 minutes for the bot, the API and Slack: the bot checks each invoice younger than an hour every 2 minutes, so a paid one is reported at the next poll.',
      group: 'Clock',
      run: () => {
        deps.shiftClock(2 * 60_000);
        simulator.advanceTime(2 * 60_000);
        return 'The clock moved 2 minutes: invoices are checked again at the next poll (within 10 seconds).';
      },
    },
    {
      id: 'clock-31m',
      label: 'Move the clock 31 minutes',
      description: 'Time jumps 31 minutes for the bot, the API and Slack: an open swap quote expires.',
      group: 'Clock',
      run: () => {
        deps.shiftClock(31 * 60_000);
        simulator.advanceTime(31 * 60_000);
        return 'The clock moved 31 minutes: open swap quotes have expired (click Approve to see).';
      },
    },
  ];
  const postDigestNow = deps.postDigestNow;
  const digest: Control[] = postDigestNow
    ? [
        {
          id: 'digest-now',
          label: 'Post a digest now',
          description:
            'The bot posts a digest in #treasury-alerts now, marked as on request, with its 30-day chart in the thread. The daily one (09:00 Europe/Berlin here) still comes once, at its time.',
          group: 'Daily digest',
          run: () => postDigestNow(),
        },
      ]
    : [];
  return [...payments, ...slackControls, ...connection, ...digest, ...clock];
}

const HOUR_MS = 60 * 60_000;

/** "3 h 5 min", "12 min", "40 s": how long a row has been pending. */
function pendingFor(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

/** A little life in the simulated merchant: a deposit now and then, a withdrawal that goes pending → success. */
export function startLiveActivity(simulator: PaymentsSimulator, everyMs: number): () => void {
  if (everyMs <= 0) return () => undefined;
  const timers = new Set<NodeJS.Timeout>();
  const tick = setInterval(() => {
    simulator.addDeposit();
    const withdrawal = simulator.addWithdrawal({ status: 'pending' });
    const done = setTimeout(() => {
      timers.delete(done);
      simulator.updateWithdrawal(withdrawal.id, { status: 'success' });
    }, everyMs / 2);
    timers.add(done);
  }, everyMs);
  return () => {
    clearInterval(tick);
    for (const timer of timers) clearTimeout(timer);
  };
}
