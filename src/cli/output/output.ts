import chalk from 'chalk';
import Table from 'cli-table3';
import { UsageError } from '../common/exit-codes.js';
import { relativeTime } from './human-time.js';

/** No colour when stdout is not a terminal or NO_COLOR is set. */
export function configureColour(stream: NodeJS.WriteStream = process.stdout): void {
  if (process.env.NO_COLOR !== undefined || !stream.isTTY) chalk.level = 0;
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Shown only when --columns names it (extra detail a default table leaves out). */
  optional?: boolean;
  /**
   * What names the row (its NAME, or its ID where it has no name): never cut to fit a terminal.
   * When no column of a table says so, the column headed NAME is the one, else the first.
   */
  identifier?: boolean;
}

/** An API timestamp (UTC ISO-8601): shown relative in tables (`3 minutes ago`), as is in CSV and JSON. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

function cell(value: unknown, field = false): string {
  if (value === null || value === undefined || value === '') return chalk.dim('-');
  if (typeof value === 'string' && ISO_TIME.test(value))
    return field ? `${value} (${relativeTime(value)})` : relativeTime(value);
  if (Array.isArray(value)) return value.length === 0 ? chalk.dim('-') : value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects went above: what is left is a scalar
  return String(value);
}

let selectedColumns: string[] | null = null;

/** The output formats of `--output` (`json` is also `--json`). */
export const OUTPUT_FORMATS = ['table', 'json', 'yaml', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

let tableFormat: 'table' | 'csv' = 'table';

/** `--output csv`: tables and key-value views print as CSV (with a header row) instead. */
export function setTableFormat(format: 'table' | 'csv'): void {
  tableFormat = format;
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : Array.isArray(value) ? value.join(';') : plain(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function plain(value: unknown): string {
  if (typeof value === 'object') return JSON.stringify(value);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects went above: what is left is a scalar
  return String(value);
}

function csv(rows: unknown[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\n');
}

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

/** Whether `--columns` names this column (e.g. to fetch the names an optional column shows). */
export function columnRequested(name: string): boolean {
  return selectedColumns?.some((c) => columnKey(c) === columnKey(name)) ?? false;
}

function pickColumns<T>(columns: Column<T>[]): Column<T>[] {
  if (!selectedColumns) return columns.filter((c) => !c.optional);
  return selectedColumns.map((wanted) => {
    const found = columns.find((c) => columnKey(c.header) === columnKey(wanted));
    if (!found)
      throw new UsageError(
        `unknown column "${wanted}"; this table has: ${columns.map((c) => columnKey(c.header)).join(', ')}`,
      );
    return found;
  });
}

// eslint-disable-next-line no-control-regex -- the escape sequences of colours
const ANSI = /\x1b\[[0-9;]*m/g;
const visibleLength = (text: string) =>
  Math.max(
    0,
    ...text
      .replace(ANSI, '')
      .split('\n')
      .map((line) => [...line].length),
  );
/** The space between two columns: cli-table3's `middle` (2) and the padding of the cells on either side (1 each). */
const GAP = 4;
/** No column is cut narrower than this. */
const MIN_WIDTH = 6;

/**
 * The widths the columns of a table get on a terminal `width` characters wide: the identifier
 * columns (`keep`, by index: the first one unless the table says otherwise) keep their width, so
 * that a row's name is never cut; of the others, those narrower than an even share of the room
 * left keep their width, and the widest share what is left (never below MIN_WIDTH). `null` when
 * the table fits as it is, or when there is no terminal to fit (scripts: unchanged). When even
 * that does not fit, the line is wider than the terminal rather than a name cut.
 */
export function fitColumns(widths: number[], width: number | undefined, keep: number[] = [0]): number[] | null {
  if (!width || width <= 0) return null;
  let room = width - GAP * (widths.length - 1);
  if (widths.reduce((a, b) => a + b, 0) <= room) return null;
  const fitted = [...widths];
  for (const i of keep) room -= widths[i] ?? 0;
  const order = widths
    .map((w, i) => i)
    .filter((i) => !keep.includes(i))
    .sort((a, b) => widths[a] - widths[b]);
  for (let k = 0; k < order.length; k++) {
    const share = Math.floor(room / (order.length - k));
    const i = order[k];
    if (widths[i] <= share) {
      room -= widths[i];
      continue;
    }
    // This column and every wider one share the room left; the last ones get what does not divide.
    for (let j = k; j < order.length; j++) {
      const left = order.length - j;
      fitted[order[j]] = Math.max(MIN_WIDTH, Math.floor(room / left));
      room -= Math.floor(room / left);
    }
    break;
  }
  return fitted;
}

/**
 * The columns that name a table's rows, by index: those marked `identifier`, else the one headed
 * NAME (wherever --columns put it), else the first.
 */
function identifierColumns<T>(columns: Column<T>[]): number[] {
  const marked = columns.flatMap((c, i) => (c.identifier ? [i] : []));
  if (marked.length > 0) return marked;
  const name = columns.findIndex((c) => c.header === 'NAME');
  return [name === -1 ? 0 : name];
}

/** `text` cut to `width` characters, the last one an ellipsis; colours are kept only when it fits. */
export function truncateCell(text: string, width: number): string {
  if (visibleLength(text) <= width) return text;
  return text
    .replace(ANSI, '')
    .split('\n')
    .map((line) => {
      const chars = [...line];
      return chars.length <= width ? line : `${chars.slice(0, width - 1).join('')}…`;
    })
    .join('\n');
}

/**
 * A table for humans. When stdout is a terminal, the table fits its width: the widest columns are
 * cut with an ellipsis, never the identifier (`Column.identifier`, else NAME, else the first).
 * When it is not (scripts, pipes), every cell is printed whole.
 */
export function renderTable<T>(rows: T[], allColumns: Column<T>[], options: { diagnostic?: boolean } = {}): string {
  // A diagnostic table (a preview on stderr) is for people: --columns and --output csv shape stdout only.
  const columns = options.diagnostic ? allColumns.filter((c) => !c.optional) : pickColumns(allColumns);
  if (tableFormat === 'csv' && !options.diagnostic)
    return csv([columns.map((c) => columnKey(c.header)), ...rows.map((r) => columns.map((c) => c.value(r)))]);
  const stream = options.diagnostic ? process.stderr : process.stdout;
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row))));
  const headers = columns.map((c) => c.header);
  const fitted = fitColumns(
    headers.map((h, i) => Math.max(visibleLength(h), ...cells.map((r) => visibleLength(r[i])))),
    stream.isTTY ? stream.columns : undefined,
    identifierColumns(columns),
  );
  if (fitted) {
    headers.forEach((h, i) => (headers[i] = truncateCell(h, fitted[i])));
    for (const r of cells) r.forEach((text, i) => (r[i] = truncateCell(text, fitted[i])));
  }
  const table = new Table({
    head: headers.map((h) => chalk.bold(h)),
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
  for (const r of cells) table.push(r);
  return table
    .toString()
    .split('\n')
    .map((l) => l.replace(/^ /, '').trimEnd())
    .join('\n');
}

/** A key-value view of one record. */
export function renderFields(fields: [string, unknown][]): string {
  if (tableFormat === 'csv') return csv([['field', 'value'], ...fields]);
  const width = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${chalk.bold(k.padEnd(width))}  ${cell(v, true)}`).join('\n');
}

/** The machine form: exactly the API's resources. */
export function renderJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

const YAML_PLAIN = /^[A-Za-z_/][A-Za-z0-9_./@ -]*$/;
const YAML_RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

function yamlScalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = plain(value);
  return YAML_PLAIN.test(text) && !YAML_RESERVED.test(text) && !text.endsWith(' ') ? text : JSON.stringify(text);
}

function yamlLines(value: unknown, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return ['[]'];
    return (value as unknown[]).flatMap((item) => {
      const [first, ...rest] = yamlLines(item, `${indent}  `);
      const nested =
        typeof item === 'object' && item !== null && (Array.isArray(item) ? item.length : Object.keys(item).length);
      return nested ? [`${indent}- ${first.trimStart()}`, ...rest] : [`${indent}- ${first.trimStart()}`];
    });
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return ['{}'];
    return entries.flatMap(([k, v]) => {
      const key = `${indent}${yamlScalar(k)}:`;
      const empty =
        typeof v !== 'object' || v === null || (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);
      if (empty) return [`${key} ${typeof v === 'object' && v !== null ? yamlLines(v, '')[0] : yamlScalar(v)}`];
      return [key, ...yamlLines(v, `${indent}  `)];
    });
  }
  return [`${indent}${yamlScalar(value)}`];
}

/**
 * `--output yaml`: the same data as --json, as YAML (block style; strings quoted as JSON strings,
 * which YAML reads as they are, whenever a plain scalar could be misread).
 */
export function renderYaml(value: unknown): string {
  return yamlLines(JSON.parse(JSON.stringify(value ?? null)), '').join('\n');
}
