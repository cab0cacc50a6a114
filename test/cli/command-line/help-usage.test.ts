import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';

// Issue 33, item 17.2: oclif marked every argument of a variadic command as repeatable
// (`WORKSPACE... [CONSUMERS...]`); only the last one is.
describe('usage of commands with a variable number of arguments', () => {
  it('remote-state add: one WORKSPACE, then CONSUMERS...', async () => {
    const res = await runCli(['remote-state', 'add', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('$ berth remote-state add WORKSPACE [CONSUMERS...] [--server');
    expect(res.stdout).toMatch(/ARGUMENTS\n {2}WORKSPACE {2,}ws- id/);
    expect(res.stdout).toMatch(/\n {2}\[CONSUMERS\.\.\.\] {2,}/);
    expect(res.stdout).not.toContain('WORKSPACE...');
  });

  it('a required last argument: team add-member TEAM USER...; help TOPIC renders the same', async () => {
    const res = await runCli(['help', 'team', 'add-member']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('$ berth team add-member TEAM USER... [');
    expect(res.stdout).not.toContain('TEAM...');
  });

  it('commands with a fixed number of arguments are unchanged', async () => {
    const res = await runCli(['workspace', 'lock', '--help']);
    expect(res.stdout).not.toContain('...] [--server');
    expect(res.stdout).toMatch(/\$ berth workspace lock \[WORKSPACE\] /);
  });
});
