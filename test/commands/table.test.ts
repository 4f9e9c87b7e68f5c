/**
 * The subcommand table (src/commands/index.ts) is what help, the parser's dispatch and the listener read: these
 * checks keep each registered module, its help lines and its examples from drifting apart.
 */
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/blocks/common.js';
import { buildHelp } from '../../src/commands/help-blocks.js';
import { SUBCOMMANDS } from '../../src/commands/index.js';
import { readTreasuryCommand } from '../../src/commands/parse.js';
import { HELP_GROUPS } from '../../src/commands/subcommand.js';
import { escapeText } from '../../src/kernel/text.js';

/** The lines of a help message's sections, in order. */
function sectionLines(blocks: readonly Block[]): string[] {
  return blocks
    .filter((block): block is Block & { text: { text: string } } => block.type === 'section' && 'text' in block)
    .flatMap((block) => block.text.text.split('\n'));
}

describe.each(SUBCOMMANDS.map((subcommand) => [subcommand.name, subcommand] as const))(
  '/treasury %s',
  (_name, subcommand) => {
    it('`help <name>` shows exactly its usage lines, in order, and so does each alias', () => {
      for (const word of [subcommand.name, subcommand.name.toUpperCase(), ...(subcommand.aliases ?? [])]) {
        const lines = sectionLines(buildHelp({ topic: word }).blocks);
        expect(lines, word).toEqual(
          subcommand.usage.map(([syntax, what]) => `• \`/treasury ${escapeText(syntax)}\` — ${what}`),
        );
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

  it('puts every subcommand but help itself in one group', () => {
    for (const subcommand of SUBCOMMANDS) {
      if (subcommand.name === 'help') expect(subcommand.group).toBeUndefined();
      else expect(Object.keys(HELP_GROUPS), subcommand.name).toContain(subcommand.group);
    }
  });

  it('help is one line per group, in order: its title, then the names of its subcommands in table order', () => {
    expect(sectionLines(buildHelp().blocks)).toEqual(
      Object.entries(HELP_GROUPS).map(([group, title]) => {
        const names = SUBCOMMANDS.filter((subcommand) => subcommand.group === group).map(({ name }) => `\`${name}\``);
        return `*${title}* — ${names.join(' · ')}`;
      }),
    );
  });

  it('an unknown word goes to help, asked about that word', () => {
    const read = readTreasuryCommand('Frobnicate now');
    expect(read.subcommand.name).toBe('help');
    expect(read.command).toEqual({ kind: 'help', topic: 'Frobnicate' });
    expect(readTreasuryCommand('help swap now').command).toEqual({ kind: 'help', topic: 'swap' });
    expect(readTreasuryCommand('help').command).toEqual({ kind: 'help' });
  });

  it('help about a word that names no subcommand says so plainly, above the groups', () => {
    const answer = buildHelp({ topic: 'nosuch' });
    const [notice, ...rest] = answer.blocks;
    expect(notice).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: ':warning: "nosuch" is not a /treasury command. These are:' },
    });
    expect(rest).toEqual(buildHelp().blocks);
    expect(answer.text).toBe('"nosuch" is not a /treasury command. These are the ones there are');
  });

  it('the first word is matched in any case', () => {
    expect(readTreasuryCommand('BALANCES').subcommand.name).toBe('balances');
    expect(readTreasuryCommand('Tasks failed').subcommand.name).toBe('payouts');
  });
});
