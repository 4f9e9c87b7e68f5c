import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createPollSchedule, type PollSchedule } from '../../src/poller/index.js';
import { startLocalStack, type LocalStack } from '../../src/rig/local-stack.js';
import { ask } from '../support/slack.js';

const quietLogger = createLogger('error', () => undefined);

describe('the schedule', () => {
  let schedule: PollSchedule | undefined;
  afterEach(async () => {
    await schedule?.stop();
    schedule = undefined;
  });

  it('a poll slower than the schedule delays the next one; two never run at once', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    schedule = createPollSchedule({
      expression: '* * * * * *', // every second
      logger: quietLogger,
      run: async () => {
        running += 1;
        runs += 1;
        maxRunning = Math.max(maxRunning, running);
        await sleep(1_600);
        running -= 1;
      },
    });
    schedule.start();
    expect(schedule.nextRun()).toBeInstanceOf(Date);
    await sleep(1_200);
    // A poll started by hand while the scheduled one runs is skipped, not run beside it.
    expect(await schedule.runNow()).toBe(false);
    await sleep(2_200);
    expect(maxRunning).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThanOrEqual(3);
    expect(schedule.status().skippedTicks).toBeGreaterThanOrEqual(1);
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
    const started = schedule.runNow();
    await sleep(20);
    expect(schedule.status().polling).toBe(true);
    await schedule.stop();
    expect(aborted).toBe(true);
    expect(await started).toBe(true);
    expect(schedule.nextRun()).toBeNull();
    await sleep(1_100);
    expect(runs).toBe(1);
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
    expect(answer.text).toContain(`*Alerts sent (24 h)*\n${posted.length}`);
    expect(answer.text).toContain('*Waiting for Slack*\n0');
    expect(answer.text).toMatch(/\*Withdrawals\*: last successful poll \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(answer.text).toMatch(/\*Payout tasks\*: last successful poll .* · :warning: failed 1 poll in a row/);
    expect(answer.text).toMatch(/\*Last error\*\npayment API \(tasks\), .* UTC: listPayoutTasks: the payment API failed with HTTP 503/);
  });

  it('says the poller is off when ALERT_CHANNEL is unset; help lists the subcommand', async () => {
    stack = await startLocalStack();
    expect(stack.treasury.alerts).toBeUndefined();
    const answer = await ask(stack, 'alerts');
    expect(answer.text).toContain('The alert poller is off: `ALERT_CHANNEL` is not set.');
    expect((await ask(stack, 'help')).text).toContain('/treasury alerts');
  });
});
