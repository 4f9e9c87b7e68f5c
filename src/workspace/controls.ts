/** The local workspace's control panel (what it can do to the simulator, Slack and the clock) and its live activity. */
import type { PaymentsSimulator } from '../simulator/index.js';
import type { SlackStandIn } from './slack-stand-in.js';

/** What the control panel can do to the simulator, Slack and the clock. */
export interface Control {
  id: string;
  label: string;
  description: string;
  run(): string;
}

export function createControls(deps: { simulator: PaymentsSimulator; slack: SlackStandIn; shiftClock: (ms: number) => void }): Control[] {
  const { simulator, slack } = deps;
  const nextPoll = 'The alert arrives in #treasury-alerts at the next poll (within 10 seconds).';
  return [
    {
      id: 'withdrawal-fails',
      label: 'Make a withdrawal fail',
      description: 'A withdrawal created now fails on the blockchain.',
      run: () => {
        const row = simulator.addWithdrawal({ status: 'failed' });
        return `Withdrawal ${row.id.slice(0, 8)}… failed. ${nextPoll}`;
      },
    },
    {
      id: 'task-fails',
      label: 'Make a payout task fail',
      description: 'A mass-payout task created now fails.',
      run: () => {
        const row = simulator.addPayoutTask({ status: 'failed' });
        return `Payout task ${row.id.slice(0, 8)}… failed. ${nextPoll}`;
      },
    },
    {
      id: 'gas-short',
      label: 'Gas top-up: donor balance too low',
      description: 'A gas top-up fails with not_enough_donor_balance.',
      run: () => {
        const row = simulator.addGasDistribution({ status: 'failed', subStatus: 'not_enough_donor_balance' });
        return `Gas top-up ${row.id.slice(0, 8)}… failed for lack of donor balance. ${nextPoll}`;
      },
    },
    {
      id: 'api-down',
      label: 'Take the payment API down for a minute',
      description: 'Every API request answers 503 for 60 seconds: commands explain it, the poller says so after 3 failed polls.',
      run: () => {
        simulator.takeDown(60_000);
        return 'The payment API answers 503 for the next 60 seconds.';
      },
    },
    {
      id: 'slack-ratelimited',
      label: 'Make Slack answer "ratelimited"',
      description: 'The next 3 chat.postMessage calls get HTTP 429 with Retry-After: 20.',
      run: () => {
        slack.failNext('chat.postMessage', { status: 429, retryAfter: 20 }, 3);
        return 'The next 3 messages the bot posts are refused with ratelimited (Retry-After 20 s); alerts wait and then arrive.';
      },
    },
    {
      id: 'clock-31m',
      label: 'Move the clock 31 minutes',
      description: 'Time jumps 31 minutes for the bot, the API and Slack: an open swap quote expires.',
      run: () => {
        deps.shiftClock(31 * 60_000);
        simulator.advanceTime(31 * 60_000);
        return 'The clock moved 31 minutes: open swap quotes have expired (click Approve to see).';
      },
    },
  ];
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
