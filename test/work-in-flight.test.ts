// The register of work in flight that shutdown waits for (src/listeners/background.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createBackgroundWork } from '../src/listeners/background.js';
import { silentLogger } from '../src/logger.js';

describe('work in flight', () => {
  it('drain waits for tracked and background work, including work started by work under way', async () => {
    const work = createBackgroundWork(silentLogger);
    const done: string[] = [];
    const request = work.track('click swap_approve', async () => {
      await sleep(60);
      // A listener hands its Home tab refresh to the background as it ends.
      work.run('home tab after an act', async () => {
        await sleep(60);
        done.push('home');
      });
      done.push('click');
      return 'answered';
    });
    work.stop();
    expect(work.stopping).toBe(true);
    expect(await work.drain(2_000)).toEqual([]);
    expect(done).toEqual(['click', 'home']);
    expect(await request).toBe('answered');
  });

  it('drain gives up at its bound and names what is still running; a failed work counts as ended', async () => {
    const work = createBackgroundWork(silentLogger);
    const failing = work.track('command /treasury invoice', async () => {
      throw new Error('the payment API refused');
    });
    await expect(failing).rejects.toThrow('the payment API refused');
    void work.track('click payout_create', () => sleep(1_000));
    work.run('answer to /treasury balances', () => sleep(1_000));
    const started = Date.now();
    expect(await work.drain(100)).toEqual(['click payout_create', 'answer to /treasury balances']);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('is not stopping until stop() is called, and drain with nothing running returns at once', async () => {
    const work = createBackgroundWork(silentLogger);
    expect(work.stopping).toBe(false);
    expect(await work.drain(10_000)).toEqual([]);
  });
});
