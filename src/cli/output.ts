import chalk from 'chalk';
import Table from 'cli-table3';
import type { Resource } from '../client/jsonapi.js';

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
  return String(value);
}

/** A table for humans. When stdout is not a terminal, a plain tab-free layout without borders. */
export function renderTable<T>(rows: T[], columns: Column<T>[]): string {
  const table = new Table({
    head: columns.map((c) => chalk.bold(c.header)),
    style: { head: [], border: [], compact: true },
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '',
      right: '', 'right-mid': '', middle: '  ',
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
export function renderJson(value: Resource | Resource[] | unknown): string {
  return JSON.stringify(value, null, 2);
}
