import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';

// Issue 33, item 17.6: oclif's own errors printed as ` ›   Error: ...`, berth's as `Error: ...`.
describe('one error style', () => {
  const noDb = { BERTH_DB: '/nonexistent/berth.db' };

  it("oclif's parse errors print as berth's: one Error: line, the command's help named, exit 2", async () => {
    for (const [args, message] of [
      [
        ['workspace', 'list', '--output', 'bogus'],
        'Error: Expected --output=bogus to be one of: table, json, yaml, csv.',
      ],
      [['workspace', 'list', '--limit', 'x'], 'Error: Parsing --limit: Expected an integer but received: x.'],
      [
        ['workspace', 'list', '--page', '2', '--limit', '3'],
        'Error: --page=2 cannot also be provided when using --limit.',
      ],
    ] as const) {
      const res = await runCli([...args], noDb);
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(`${message} See \`berth workspace list --help\`.\n`);
    }
  });

  it('errors a command raises through oclif (this.error) print the same way', async () => {
    const res = await runCli(['workspace', 'list', '--json', '--output', 'csv'], noDb);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('Error: --json and --output csv contradict each other\n');
    const flag = await runCli(['workspace', 'list', '--server'], noDb);
    expect(flag.code).toBe(2);
    expect(flag.stderr).not.toContain('›');
    expect(flag.stderr).toMatch(/^Error: /);
  });
});
