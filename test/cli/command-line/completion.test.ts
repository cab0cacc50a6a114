import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete, type CompletionCommand } from '../../../src/cli/command-line/completion.js';
import { runCli, tempDb } from '../../helpers/cli.js';

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

describe('completion of flag values and quoted names', () => {
  const withFlags: CompletionCommand[] = [
    {
      id: 'workspace:list',
      flags: { project: { type: 'option', char: 'p' }, org: { type: 'option', char: 'o' }, json: { type: 'boolean' } },
      args: [],
    },
    { id: 'audit:list', flags: { workspace: { type: 'option', char: 'w' } }, args: [] },
  ];

  it('asks for names after --project/-p, --workspace/-w and --org/-o', () => {
    expect(complete(withFlags, ['workspace', 'list', '--project', '']).argument).toBe('project');
    expect(complete(withFlags, ['workspace', 'list', '-p', 'Def']).argument).toBe('project');
    expect(complete(withFlags, ['workspace', 'list', '-o', '']).argument).toBe('org');
    expect(complete(withFlags, ['audit', 'list', '-w', '']).argument).toBe('workspace');
  });

  describe('through the CLI', () => {
    const tmp = tempDb();
    const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
    beforeAll(async () => {
      await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], env);
      await runCli(['org', 'create', 'other', '--email', 'a@acme.test'], env);
      await runCli(['project', 'create', 'Platform Team'], env);
    });
    afterAll(() => tmp.cleanup());

    it('offers project names with spaces as one candidate each, also after an opening quote', async () => {
      for (const typed of ['Plat', '"Plat', 'Platform\\ T']) {
        const r = await runCli(['completion', 'candidates', '--', 'workspace', 'list', '--project', typed], env);
        expect(r.stdout.trim().split('\n')).toEqual(['Platform Team']);
      }
    });

    it('offers organization names for --org', async () => {
      const r = await runCli(['completion', 'candidates', '--', 'workspace', 'list', '--org', 'o'], env);
      expect(r.stdout.trim().split('\n')).toEqual(['other']);
    });

    it('prints a fish script, and a bash script that quotes what it inserts', async () => {
      const fish = await runCli(['completion', 'fish'], env);
      expect(fish.code).toBe(0);
      expect(fish.stdout).toContain("complete -c berth -f -a '(__berth_complete)'");
      expect(fish.stdout).toContain('berth completion candidates --');
      expect((await runCli(['completion', 'bash'], env)).stdout).toContain("printf '%q'");
    });
  });
});
