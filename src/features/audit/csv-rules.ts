/**
 * The audit export's rows and columns, as pure rules: one row per event, the stable column names
 * (documented in docs/audit-csv.md), and what makes a row safe to open in a spreadsheet. A text cell that begins
 * with `=`, `+`, `-`, `@`, a tab or a carriage return (or their full-width forms, which some spreadsheets read the
 * same way) gets a leading `'`, as OWASP advises against formula injection; numeric cells are checked to be plain
 * decimal numbers and are written as they are, so a negative amount stays a number.
 */

/** The columns, in order. Never renamed or reordered: a controller's spreadsheet reads them by name. */
export const AUDIT_COLUMNS = [
  'time',
  'category',
  'event',
  'subject_id',
  'actor',
  'asset',
  'amount',
  'amount_units',
  'usd_value',
  'to_asset',
  'to_amount',
  'policy',
  'status',
  'swap_id',
  'payout_id',
  'detail',
  // Added at the end, as docs/audit-csv.md promises: `yes` on an approval made with a code.
  'second_factor',
] as const;
export type AuditColumn = (typeof AUDIT_COLUMNS)[number];

/** The columns that hold numbers: exact decimals (never floats), written as they are. */
const NUMERIC_COLUMNS: ReadonlySet<AuditColumn> = new Set(['amount', 'amount_units', 'usd_value', 'to_amount']);

/** What each row is about. */
export const AUDIT_CATEGORIES = ['swap_quote', 'alert', 'threshold', 'payout', 'freeze', 'second_factor'] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

/** One event of the trail, before it becomes a CSV record. `at` is when it happened (ms since the epoch). */
export interface AuditRow {
  at: number;
  category: AuditCategory;
  event: string;
  subjectId: string;
  actor?: string | undefined;
  asset?: string | undefined;
  /** Token units, an exact decimal string. */
  amount?: string | undefined;
  /** Base units, an integer string. */
  amountUnits?: string | undefined;
  /** USD, an exact decimal string. */
  usdValue?: string | undefined;
  toAsset?: string | undefined;
  toAmount?: string | undefined;
  policy?: string | undefined;
  status?: string | undefined;
  swapId?: string | undefined;
  payoutId?: string | undefined;
  detail?: string | undefined;
  /** An approval made with a code from the approver's authenticator app. */
  secondFactor?: boolean | undefined;
}

/** A plain decimal number: what a numeric column may hold. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/** First characters a spreadsheet may read as the start of a formula (OWASP's list, and the full-width forms). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A text cell made safe to open in a spreadsheet: a leading `'` when it could start a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The row as the CSV record, column by column: the time as ISO-8601 UTC, text neutralised, numbers as they are.
 * A numeric value that is not a plain decimal number (a damaged record) is not written as a number: it is left
 * out of its column and told in `detail`, neutralised like any text.
 */
export function auditRecord(row: AuditRow): string[] {
  const numbers: Partial<Record<AuditColumn, string | undefined>> = {
    amount: row.amount,
    amount_units: row.amountUnits,
    usd_value: row.usdValue,
    to_amount: row.toAmount,
  };
  const unreadable: string[] = [];
  for (const [column, value] of Object.entries(numbers) as [AuditColumn, string | undefined][]) {
    if (value === undefined || value === '' || PLAIN_NUMBER.test(value)) continue;
    unreadable.push(`${column} as recorded: ${value}`);
    numbers[column] = undefined;
  }
  const detail = [row.detail, ...unreadable].filter((part) => part !== undefined && part !== '').join('; ');
  const cells: Record<AuditColumn, string | undefined> = {
    time: new Date(row.at).toISOString(),
    category: row.category,
    event: row.event,
    subject_id: row.subjectId,
    actor: row.actor,
    asset: row.asset,
    amount: numbers.amount,
    amount_units: numbers.amount_units,
    usd_value: numbers.usd_value,
    to_asset: row.toAsset,
    to_amount: numbers.to_amount,
    policy: row.policy,
    status: row.status,
    swap_id: row.swapId,
    payout_id: row.payoutId,
    detail,
    second_factor: row.secondFactor ? 'yes' : undefined,
  };
  return AUDIT_COLUMNS.map((column) => {
    const value = cells[column] ?? '';
    return NUMERIC_COLUMNS.has(column) || column === 'time' ? value : neutraliseFormula(value);
  });
}
