import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete, type CompletionCommand } from '../../src/cli/completion.js';
import { runCli, tempDb } from '../helpers/cli.js';

const commands: CompletionCommand[] = [
  {
    id: 'workspace:lock',
    flags: { reason: { type: 'option' }, json: { type: 'boolean' }, org: { type: 'option' } },
    args: ['workspace'],
  },
  {
    id: 'workspace:create',
    flags: {
      'execution-mode': { type: 'option', options: ['remote', 'local', 'agent'] },
      'auto-apply': { type: 'boolean' },
    },
    args: ['name'],
  },
  { id: 'workspace:tags:add', flags: {}, args: ['workspace', 'tag'] },
  { id: 'org:list', flags: {}, args: [] },
  { id: 'serve', flags: { port: { type: 'option' } }, args: [] },
];

describe('completion', () => {
  it('completes topics, then commands within a topic', () => {
    expect(complete(commands, ['']).candidates).toEqual(['org', 'serve', 'workspace']);
    expect(complete(commands, ['wo']).candidates).toEqual(['workspace']);
    expect(complete(commands, ['workspace', '']).candidates).toEqual(['create', 'lock', 'tags']);
    expect(complete(commands, ['workspace', 'tags', '']).candidates).toEqual(['add']);
  });

  it('completes flags, negations of boolean flags, and the options of a flag', () => {
    expect(complete(commands, ['workspace', 'create', '--a']).candidates).toEqual(['--auto-apply']);
    expect(complete(commands, ['workspace', 'create', '--no']).candidates).toEqual(['--no-auto-apply']);
    expect(complete(commands, ['workspace', 'create', 'x', '--execution-mode', 'l']).candidates).toEqual(['local']);
  });

  it('names the argument being completed, skipping flags and their values', () => {
    expect(complete(commands, ['workspace', 'lock', '']).argument).toBe('workspace');
    expect(complete(commands, ['workspace', 'tags', 'add', '--org', 'acme', 'web', '']).argument).toBe('tag');
  });

  describe('through the CLI', () => {
    const tmp = tempDb();
    const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
    beforeAll(async () => {
      await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], env);
      for (const n of ['app-prod', 'app-dev', 'db']) await runCli(['workspace', 'create', n], env);
    });
    afterAll(() => tmp.cleanup());

    it('offers workspace names for a WORKSPACE argument', async () => {
      const r = await runCli(['completion', 'candidates', '--', 'workspace', 'lock', 'app'], env);
      expect(r.stdout.trim().split('\n').sort()).toEqual(['app-dev', 'app-prod']);
    });

    it('prints a bash script that calls back into berth', async () => {
      const r = await runCli(['completion', 'bash'], env);
      expect(r.stdout).toContain('complete -o default -F _berth_complete berth');
      expect(r.stdout).toContain('berth completion candidates --');
    });
  });
});
