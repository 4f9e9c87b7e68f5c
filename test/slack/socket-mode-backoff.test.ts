import { describe, expect, it } from 'vitest';
import { reconnectDelayMs, SOCKET_RECONNECT_POLICY } from '../../src/slack/socket-mode.js';

const middle = () => 0.5;
const lowest = () => 0;
const highest = () => 0.999999;

describe('Socket Mode reconnect delay', () => {
  it('tries the first reconnect at once: Slack asked for it, or the socket just dropped', () => {
    expect(reconnectDelayMs(1, SOCKET_RECONNECT_POLICY, highest)).toBe(0);
  });

  it('then waits 1 s, doubling up to 30 s, and stays at 30 s however long Slack is away', () => {
    const delays = [2, 3, 4, 5, 6, 7, 8, 50, 10_000].map((attempt) =>
      reconnectDelayMs(attempt, SOCKET_RECONNECT_POLICY, middle),
    );
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('spreads each delay by ±20 %, so bots dropped together do not call Slack in step', () => {
    expect(reconnectDelayMs(2, SOCKET_RECONNECT_POLICY, lowest)).toBe(800);
    expect(reconnectDelayMs(2, SOCKET_RECONNECT_POLICY, highest)).toBe(1_200);
    expect(reconnectDelayMs(20, SOCKET_RECONNECT_POLICY, lowest)).toBe(24_000);
    expect(reconnectDelayMs(20, SOCKET_RECONNECT_POLICY, highest)).toBe(36_000);
    for (let i = 0; i < 200; i += 1) {
      const delay = reconnectDelayMs(4, SOCKET_RECONNECT_POLICY);
      expect(delay).toBeGreaterThanOrEqual(3_200);
      expect(delay).toBeLessThanOrEqual(4_800);
    }
  });

  it('follows a policy given to it (tests use milliseconds)', () => {
    const policy = { initialMs: 10, maxMs: 40, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((attempt) => reconnectDelayMs(attempt, policy))).toEqual([0, 10, 20, 40, 40]);
  });
});
