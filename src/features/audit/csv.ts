/**
 * The audit rows as an RFC 4180 CSV stream: a header of the stable column names, CRLF line ends, fields
 * holding a comma, a quote, CR or LF quoted with quotes doubled, UTF-8. Written by csv-stringify (streaming, RFC
 * 4180), from records auditRecord made safe for spreadsheets: rows pass through one at a time.
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { AUDIT_COLUMNS, type AuditRow, auditRecord } from './csv-rules.js';

/** The stringifier's settings: RFC 4180, and nothing of its own formula escaping (auditRecord decides per column). */
function csvStringifier() {
  return stringify({
    header: true,
    columns: [...AUDIT_COLUMNS],
    delimiter: ',',
    quote: '"',
    escape: '"',
    record_delimiter: '\r\n',
    escape_formulas: false,
  });
}

/** Writes `rows` to `out` as CSV (ending it); resolves with the number of rows (the header not counted). */
export async function writeAuditCsv(rows: AsyncIterable<AuditRow>, out: Writable): Promise<number> {
  let count = 0;
  async function* records(): AsyncGenerator<string[]> {
    for await (const row of rows) {
      count += 1;
      yield auditRecord(row);
    }
  }
  await pipeline(Readable.from(records()), csvStringifier(), out);
  return count;
}
