import { afterEach, describe, expect, it } from 'vitest';
import { renderTable } from '../../../src/cli/output/output.js';

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

  it('on a terminal, the table fits its width: the widest columns are cut with an ellipsis', () => {
    stdout.isTTY = true;
    stdout.columns = 80;
    const text = renderTable(rows, columns);
    expect(Math.max(...widths(text))).toBeLessThanOrEqual(80);
    expect(Math.max(...widths(text))).toBeGreaterThan(70);
    expect(text).toContain('ws-aaaaaaaaaaaaaaaa');
    expect(text).toContain('…');
    expect(text).toMatch(/^NAME +ID +DESCRIPTION$/m);
    expect(text).toMatch(/^a-rather-long-workspa\S*… +ws-bbbbbbbbbbbbbbbb +short$/m);
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
