import { describe, expect, it } from 'vitest';
import { createLogger, withLogContext } from '../../src/logger.js';

describe('createLogger', () => {
  it('text (the default) writes the readable line people read', () => {
    const lines: string[] = [];
    createLogger('info', (line) => lines.push(line)).info('hello', { a: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}hello \{"a":1\}$/);
  });

  it('json writes one pino object per line: level, time, msg, replica, the flow context, the fields', async () => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => lines.push(line), { format: 'json', replica: 'pod-a' });
    logger.info('plain');
    await withLogContext({ command: '/treasury', subcommand: 'balance' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn('later in the same flow', { quoteId: 'q1' });
    });
    const [plain, inside] = lines.map((line) => JSON.parse(line));
    expect(plain).toMatchObject({ level: 30, msg: 'plain', replica: 'pod-a' });
    expect(typeof plain.time).toBe('number');
    expect(plain.subcommand).toBeUndefined();
    expect(inside).toMatchObject({ level: 40, msg: 'later in the same flow', subcommand: 'balance', quoteId: 'q1' });
  });

  it('json below the level writes nothing', () => {
    const lines: string[] = [];
    createLogger('warn', (line) => lines.push(line), { format: 'json' }).info('dropped');
    expect(lines).toEqual([]);
  });

  it('redacts token-like fields wherever they sit, and known secret values in any text', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => lines.push(line), {
      format: 'json',
      secrets: ['sk_live_known_secret_value'],
    });
    logger.error('call failed for sk_live_known_secret_value', {
      token: 'xoxb-visible-1',
      error: { options: { headers: { authorization: 'Bearer visible-2' } }, apiKey: 'visible-3' },
      link: 'otpauth://totp/x?secret=VISIBLE4',
    });
    const text = lines.join('\n');
    for (const leaked of ['xoxb-visible-1', 'visible-2', 'visible-3', 'VISIBLE4', 'sk_live_known_secret_value'])
      expect(text).not.toContain(leaked);
    expect(text).toContain('[REDACTED]');
  });
});
