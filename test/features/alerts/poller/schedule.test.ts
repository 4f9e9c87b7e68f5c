import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  alertPollJob,
  createLeadershipGate,
  createScheduler,
  type JobSchedule as PollSchedule,
} from '../../../../src/jobs/index.js';
import { createLogger, type Logger } from '../../../../src/logger.js';
import { messageToText } from '../../../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../../../support/rig/local-stack.js';
import { ask } from '../../../support/slack.js';
import { expectStaysAt, waitUntil } from '../../../support/waiting.js';

const quietLogger = createLogger('error', () => undefined);

/** The alert poll's job on the one scheduler, as the app registers it (one process: always the leader). */
function createPollSchedule(options: {
  expression: string;
  run: (signal: AbortSignal) => Promise<unknown>;
  logger: Logger;
}): PollSchedule {
  const scheduler = createScheduler({ logger: options.logger, leadership: createLeadershipGate(undefined) });
  return scheduler.add(
    alertPollJob(
      options.expression,
      async (signal) => {
        await options.run(signal);
      },
      options.logger,
    ),
  );
}

describe('the schedule', () => {
  let schedule: PollSchedule | undefined;
  afterEach(async () => {
    await schedule?.stop();
    schedule = undefined;
  });

  it('a poll slower than the schedule delays the next one; two never run at once', async () => {
    let running = 0;
    let maxRunning = 0;
    const polls: { startedAt: number; endedAt?: number }[] = [];
    schedule = createPollSchedule({
      expression: '* * * * * *', // every second
      logger: quietLogger,
      run: async (signal) => {
        const poll: { startedAt: number; endedAt?: number } = { startedAt: Date.now() };
        polls.push(poll);
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        try {
          await sleep(1_600, undefined, { signal }); // longer than a tick; aborted by stop() at the end
        } catch {
          // stopped
        } finally {
          running -= 1;
          poll.endedAt = Date.now();
        }
      },
    });
    schedule.start();
    expect(schedule.nextRun()).toBeInstanceOf(Date);
    await waitUntil(() => running === 1, 'the first scheduled poll to start', 3_000);
    // A poll started by hand while the scheduled one runs is skipped, not run beside it.
    expect(await schedule.runNow()).toBe(false);
    // The ticks inside the first poll are skipped; the next poll starts only once the first has ended.
    await waitUntil(() => polls.length >= 2, 'the second scheduled poll to start', 4_000);
    expect(maxRunning).toBe(1);
    expect(polls[0]!.endedAt).toBeDefined();
    expect(polls[1]!.startedAt).toBeGreaterThanOrEqual(polls[0]!.endedAt!);
    // The poll started by hand, and at least one tick inside the 1.6 s poll.
    expect(schedule.status().skippedTicks).toBeGreaterThanOrEqual(2);
  });

  it('stop() aborts the running poll between requests and waits for it; nothing runs afterwards', async () => {
    let aborted = false;
    let runs = 0;
    schedule = createPollSchedule({
      expression: '* * * * * *',
      logger: quietLogger,
      run: async (signal) => {
        runs += 1;
        while (!signal.aborted) await sleep(10);
        aborted = true;
      },
    });
    // Scheduled every second, so "nothing runs afterwards" covers the schedule's own ticks too.
    schedule.start();
    const started = schedule.runNow();
    await waitUntil(() => runs === 1 && schedule!.status().polling, 'the poll to be running');
    await schedule.stop();
    expect(aborted).toBe(true);
    expect(await started).toBe(true);
    expect(schedule.nextRun()).toBeNull();
    // At least one tick falls in this quiet period.
    await expectStaysAt({ runs: 1 }, () => ({ runs }), 1_100);
  });

  it('stop() at shutdown lets the running poll finish within finishWithinMs (not aborted); a poll longer than that is aborted', async () => {
    const outcomes: string[] = [];
    let runs = 0;
    schedule = createPollSchedule({
      expression: '0 0 1 1 *', // never during the test: polls are started by hand
      logger: quietLogger,
      run: async (signal) => {
        runs += 1;
        try {
          await sleep(runs === 1 ? 150 : 5_000, undefined, { signal });
          outcomes.push('finished');
        } catch {
          outcomes.push('aborted');
        }
      },
    });
    schedule.start();
    void schedule.runNow();
    await waitUntil(() => schedule!.status().polling, 'the first poll to be running');
    await schedule.stop(undefined, 2_000);
    expect(outcomes).toEqual(['finished']);

    schedule.start();
    void schedule.runNow();
    await waitUntil(() => schedule!.status().polling, 'the second poll to be running');
    const started = Date.now();
    await schedule.stop(undefined, 200);
    expect(outcomes).toEqual(['finished', 'aborted']);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('an unexpected error in a poll is logged, and the next poll runs', async () => {
    const lines: string[] = [];
    let calls = 0;
    schedule = createPollSchedule({
      expression: '0 0 1 1 *',
      logger: createLogger('error', (line) => lines.push(line)),
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('the state store is closed');
      },
    });
    expect(await schedule.runNow()).toBe(true);
    expect(await schedule.runNow()).toBe(true);
    expect(calls).toBe(2);
    expect(lines.join('\n')).toMatch(/ERROR alert poller: a poll failed unexpectedly .*the state store is closed/);
  });
});

describe('/treasury alerts through the running bot', () => {
  let stack: LocalStack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('shows the last poll of each source, alerts sent in 24 h, next run and the channel; alerts went out through the app', async () => {
    // A schedule that will not fire during the test: the poll is started by hand through the same guard.
    stack = await startLocalStack({ env: { ALERT_CHANNEL: 'C0ALERTS', POLL_SCHEDULE: '0 0 1 1 *' } });
    const alerts = stack.treasury.alerts!;
    expect(await alerts.runNow()).toBe(true);
    // The seeded merchant has failures in the last 24 h (ALERT_LOOKBACK default): posted by the bot itself.
    const posted = stack.slack.messages('C0ALERTS');
    expect(posted.length).toBeGreaterThan(0);
    expect(posted.length).toBe(alerts.lastReport()?.posted);

    stack.simulator.injectFault('listPayoutTasks', { status: 503 }, 10);
    await alerts.runNow();
    const answer = await ask(stack, 'alerts');
    expect(answer.reply.responseType).toBe('ephemeral');
    expect(answer.text).toContain('*Channel*\n<#C0ALERTS>');
    expect(answer.text).toContain('*Schedule*\n`0 0 1 1 *`');
    expect(answer.text).toMatch(/\*Next run\*\n\d{4}-01-01 00:00 UTC/);
    // Failures alerted: rows stuck in pending are alerts too, but not failures.
    const failureMessages = posted.filter((m) => !messageToText(m).includes('stuck in pending'));
    expect(failureMessages.length).toBeLessThan(posted.length);
    expect(answer.text).toContain(`*Alerts sent (24 h)*\n${failureMessages.length}`);
    expect(answer.text).toContain('*Waiting for Slack*\n0');
    expect(answer.text).toMatch(/\*Withdrawals\*: last successful poll \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(answer.text).toMatch(/\*Payout tasks\*: last successful poll .* · :warning: failed 1 poll in a row/);
    expect(answer.text).toMatch(
      /\*Last error\*\npayment API \(tasks\), .* UTC: listPayoutTasks: the payment API failed with HTTP 503/,
    );
  });

  it('says the poller is off when ALERT_CHANNEL is unset; help lists the subcommand', async () => {
    stack = await startLocalStack();
    expect(stack.treasury.alerts).toBeUndefined();
    const answer = await ask(stack, 'alerts');
    expect(answer.text).toContain('The alert poller is off: `ALERT_CHANNEL` is not set.');
    expect((await ask(stack, 'help')).text).toContain('*Alerts* — `alerts`');
  });
});
