/**
 * The subcommand table (src/commands/index.ts) is what help, the parser's dispatch and the listener read: these
 * checks keep each registered module, its help lines and its examples from drifting apart.
 */
import { describe, expect, it } from 'vitest';
import { buildHelp } from '../../src/commands/help-blocks.js';
import { SUBCOMMANDS } from '../../src/commands/index.js';
import { readTreasuryCommand } from '../../src/commands/parse.js';
import { escapeText } from '../../src/kernel/text.js';

/** Every mrkdwn text of a message's blocks, joined. */
function helpText(): string {
  return JSON.stringify(buildHelp().blocks);
}

describe.each(SUBCOMMANDS.map((subcommand) => [subcommand.name, subcommand] as const))(
  '/treasury %s',
  (_name, subcommand) => {
    it('appears in help with each of its usage lines', () => {
      const text = helpText();
      for (const [syntax, what] of subcommand.usage) {
        expect(text).toContain(JSON.stringify(`• \`/treasury ${escapeText(syntax)}\` — ${what}`).slice(1, -1));
      }
    });

    it('has examples, and each one is read by this module without a refusal', () => {
      expect(subcommand.examples.length).toBeGreaterThan(0);
      for (const example of subcommand.examples) {
        expect(readTreasuryCommand(example).subcommand, example).toBe(subcommand);
      }
    });

    it('every example its help shows (e.g. `…`) is read by this module', () => {
      const words = [subcommand.name, ...(subcommand.aliases ?? [])];
      for (const [, what] of subcommand.usage) {
        for (const [, example] of what.matchAll(/`([^`]+)`/g)) {
          if (!words.includes(example!.split(' ')[0]!)) continue;
          expect(readTreasuryCommand(example!).subcommand, example).toBe(subcommand);
        }
      }
    });

    it('declares who may run it', () => {
      expect(['treasury-users', 'admins']).toContain(subcommand.access);
    });
  },
);

describe('the table', () => {
  it('binds each word to one module', () => {
    const words = SUBCOMMANDS.flatMap((subcommand) => [subcommand.name, ...(subcommand.aliases ?? [])]);
    expect(new Set(words).size).toBe(words.length);
  });

  it('help lists exactly the registered usage lines, in table order', () => {
    // The lines may run over several sections (3,000 characters each), each line whole.
    const sections = buildHelp().blocks.filter((block) => block.type === 'section' && 'text' in block) as Array<{
      text: { text: string };
    }>;
    const lines = sections.flatMap((section) => section.text.text.split('\n'));
    expect(lines).toEqual(
      SUBCOMMANDS.flatMap((subcommand) => subcommand.usage).map(
        ([syntax, what]) => `• \`/treasury ${escapeText(syntax)}\` — ${what}`,
      ),
    );
  });

  it('an unknown word goes to help, which names it', () => {
    const read = readTreasuryCommand('Frobnicate now');
    expect(read.subcommand.name).toBe('help');
    expect(read.command).toEqual({ kind: 'help', unknown: 'Frobnicate' });
  });

  it('the first word is matched in any case', () => {
    expect(readTreasuryCommand('BALANCES').subcommand.name).toBe('balances');
    expect(readTreasuryCommand('Tasks failed').subcommand.name).toBe('payouts');
  });
});
