/**
 * The swap quotes that left the state file (features/swaps/retention.ts), kept beside it for the audit export: one
 * append-only file per month of the quotes' estimates, `<state file>.quotes-<YYYY-MM>.jsonl`, one quote a line.
 * Never rewritten or pruned by the bot. A month is read only when an export reaches it, so the export of a month
 * never reads the year.
 *
 * Written BEFORE the quotes leave the state file (appended and fsynced inside the same serialized update): a crash
 * in between leaves a quote in both places, never in neither. Readers keep the state file's copy over an archived
 * one, and the last copy of an id within a month file (an id archived twice: the later line is the newer record).
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SwapQuote } from '../../features/swaps/quote.js';
import { estimateMonth } from '../../features/swaps/retention.js';

export interface QuoteArchive {
  /** Appends `quotes` to their months' files and flushes them to disk (synchronous: called inside an update). */
  append(quotes: readonly SwapQuote[]): void;
  /** The months that have an archive file, oldest first (`2026-01`). */
  months(): string[];
  /** The month's archived quotes (the last copy of each id); lines that do not parse are left out and counted. */
  readMonth(month: string): { quotes: SwapQuote[]; damaged: number };
}

const MONTH_FILE = /^(\d{4}-\d{2})\.jsonl$/;

/** The archive beside the state file `file` (an absolute path). */
export function quoteArchiveBeside(file: string): QuoteArchive {
  const dir = dirname(file);
  const prefix = `${basename(file)}.quotes-`;
  const pathOf = (month: string) => join(dir, `${prefix}${month}.jsonl`);

  const syncDir = () => {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };

  return {
    append(quotes) {
      const byMonth = new Map<string, string[]>();
      for (const quote of quotes) {
        const month = estimateMonth(quote);
        if (month === undefined) throw new Error(`swap quote ${quote.id} has no estimate time to archive it by`);
        byMonth.set(month, [...(byMonth.get(month) ?? []), JSON.stringify(quote)]);
      }
      let created = false;
      for (const [month, lines] of byMonth) {
        const path = pathOf(month);
        if (!existsSync(path)) created = true;
        const fd = openSync(path, 'a');
        try {
          // A line torn by a crash ends without a newline: starting each batch on a new line keeps it one bad line.
          writeSync(fd, `\n${lines.join('\n')}\n`);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      }
      if (created) syncDir();
    },

    months() {
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((name) => name.startsWith(prefix))
        .map((name) => MONTH_FILE.exec(name.slice(prefix.length))?.[1])
        .filter((month): month is string => month !== undefined)
        .sort();
    },

    readMonth(month) {
      let text: string;
      try {
        text = readFileSync(pathOf(month), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { quotes: [], damaged: 0 };
        throw error;
      }
      const byId = new Map<string, SwapQuote>();
      let damaged = 0;
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        try {
          const parsed = SwapQuote.safeParse(JSON.parse(line));
          if (parsed.success) {
            byId.delete(parsed.data.id); // the later copy, in its place
            byId.set(parsed.data.id, parsed.data);
          } else damaged++;
        } catch {
          damaged++;
        }
      }
      return { quotes: [...byId.values()], damaged };
    },
  };
}

/** Whether quotes of the state file `file` were ever archived beside it: the state existed here. */
export function hasQuoteArchive(file: string): boolean {
  return quoteArchiveBeside(file).months().length > 0;
}
