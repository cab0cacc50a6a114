import chalk from 'chalk';
import Table from 'cli-table3';
import { UsageError } from './exit-codes.js';

/** No colour when stdout is not a terminal or NO_COLOR is set. */
export function configureColour(stream: NodeJS.WriteStream = process.stdout): void {
  if (process.env.NO_COLOR !== undefined || !stream.isTTY) chalk.level = 0;
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return chalk.dim('-');
  if (Array.isArray(value)) return value.length === 0 ? chalk.dim('-') : value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects went above: what is left is a scalar
  return String(value);
}

let selectedColumns: string[] | null = null;

/** `--columns a,b`: the tables of this command show only these columns, in this order. */
export function selectColumns(list: string | undefined): void {
  selectedColumns = list
    ? list
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '')
    : null;
}

const columnKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '-');

function pickColumns<T>(columns: Column<T>[]): Column<T>[] {
  if (!selectedColumns) return columns;
  return selectedColumns.map((wanted) => {
    const found = columns.find((c) => columnKey(c.header) === columnKey(wanted));
    if (!found)
      throw new UsageError(
        `unknown column "${wanted}"; this table has: ${columns.map((c) => columnKey(c.header)).join(', ')}`,
      );
    return found;
  });
}

/** A table for humans. When stdout is not a terminal, a plain tab-free layout without borders. */
export function renderTable<T>(rows: T[], allColumns: Column<T>[]): string {
  const columns = pickColumns(allColumns);
  const table = new Table({
    head: columns.map((c) => chalk.bold(c.header)),
    style: { head: [], border: [], compact: true },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
  });
  for (const row of rows) table.push(columns.map((c) => cell(c.value(row))));
  return table
    .toString()
    .split('\n')
    .map((l) => l.replace(/^ /, '').trimEnd())
    .join('\n');
}

/** A key-value view of one record. */
export function renderFields(fields: [string, unknown][]): string {
  const width = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${chalk.bold(k.padEnd(width))}  ${cell(v)}`).join('\n');
}

/** The machine form: exactly the API's resources. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
