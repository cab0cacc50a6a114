import { afterEach, describe, expect, it } from 'vitest';
import { renderTable, selectColumns } from '../../../src/cli/output/output.js';

// Issue 33, item 17.5: tables were not cut to the terminal's width.
describe('tables and the terminal width', () => {
  const stdout = process.stdout as { isTTY?: boolean; columns?: number };
  const saved = { isTTY: stdout.isTTY, columns: stdout.columns };
  afterEach(() => {
    stdout.isTTY = saved.isTTY;
    stdout.columns = saved.columns;
  });
  const rows = [
    { name: 'app-prod', id: 'ws-aaaaaaaaaaaaaaaa', description: 'the production front end, served from three regions' },
    { name: 'a-rather-long-workspace-name-indeed', id: 'ws-bbbbbbbbbbbbbbbb', description: 'short' },
  ];
  const columns = [
    { header: 'NAME', value: (r: (typeof rows)[number]) => r.name },
    { header: 'ID', value: (r: (typeof rows)[number]) => r.id },
    { header: 'DESCRIPTION', value: (r: (typeof rows)[number]) => r.description },
  ];
  const widths = (text: string) => text.split('\n').map((l) => [...l].length);

  it('on a terminal, the table fits its width: the widest columns are cut with an ellipsis, never the name', () => {
    stdout.isTTY = true;
    stdout.columns = 80;
    const text = renderTable(rows, columns);
    expect(Math.max(...widths(text))).toBeLessThanOrEqual(80);
    expect(Math.max(...widths(text))).toBeGreaterThan(70);
    expect(text).toContain('…');
    expect(text).toMatch(/^NAME +ID +DESCRIPTION$/m);
    // Issue 46, item 2: the name was cut (`a-rather-long-workspa…`); the others shrink instead.
    expect(text).toMatch(/^a-rather-long-workspace-name-indeed +ws-b{14}… +short$/m);
    expect(text).toMatch(/^app-prod +ws-a{14}… +the production fr\S*…$/m);
  });

  it('NAME stays whole wherever --columns puts it; a column marked identifier instead of it', () => {
    stdout.isTTY = true;
    stdout.columns = 60;
    selectColumns('description,name');
    try {
      const text = renderTable(rows, columns);
      expect(text).toMatch(/^short +a-rather-long-workspace-name-indeed$/m);
      expect(text).toMatch(/^the production\S* \S*… +app-prod$/m);
    } finally {
      selectColumns(undefined);
    }
    const byId = [{ ...columns[0] }, { ...columns[1], identifier: true }, columns[2]];
    stdout.columns = 50;
    const text = renderTable(rows, byId);
    expect(text).toContain('ws-aaaaaaaaaaaaaaaa');
    expect(text).toContain('ws-bbbbbbbbbbbbbbbb');
    expect(text).toMatch(/^a-rather-l… +ws-b{16} +short$/m);
  });

  it('a name wider than the terminal is printed whole: the line overflows, the others are cut to their least', () => {
    stdout.isTTY = true;
    stdout.columns = 30;
    const text = renderTable(rows, columns);
    expect(text).toMatch(/^a-rather-long-workspace-name-indeed +ws-bb… +short$/m);
    expect(text).toMatch(/^app-prod +ws-aa… +the p…$/m);
  });

  it('a table that fits, and any table when stdout is not a terminal, is printed whole', () => {
    stdout.isTTY = true;
    stdout.columns = 200;
    const wide = renderTable(rows, columns);
    expect(wide).not.toContain('…');
    stdout.isTTY = false;
    stdout.columns = 60;
    const piped = renderTable(rows, columns);
    expect(piped).toBe(wide);
    expect(piped).toContain('the production front end, served from three regions');
  });
});
