import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactiveCreateFlow, type FlowPrompts } from '../../../src/cli/workspaces/workspace-create-flow.js';
import { KEYS, runCli, runCliInPty, tempDb } from '../../helpers/cli.js';

describe('berth workspace create, interactive, in a pseudo-terminal', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path };
  let poolId: string;

  beforeAll(async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test'], env)).code).toBe(0);
    const pool = await runCli(['agent-pool', 'create', 'builders', '--org', 'acme', '--json'], env);
    poolId = JSON.parse(pool.stdout).id;
  });
  afterAll(() => db.cleanup());

  it('asks name, project, execution mode, agent pool, description, auto-apply, tags; summarises; creates on confirm', async () => {
    const { code, output } = await runCliInPty(
      ['workspace', 'create', '--org', 'acme'],
      [
        { expect: 'Workspace name', send: `bad name${KEYS.enter}` },
        { expect: 'Name is invalid', send: '\x7f'.repeat(8) + `pty-ws${KEYS.enter}` },
        { expect: 'Execution mode', send: `${KEYS.down}${KEYS.down}${KEYS.down}${KEYS.enter}` },
        { expect: 'Agent pool', send: KEYS.enter },
        { expect: 'Description', send: `made in a terminal${KEYS.enter}` },
        { expect: 'Apply automatically', send: `y${KEYS.enter}` },
        { expect: 'Tags', send: `env=pty,team=x${KEYS.enter}` },
        { expect: 'Create this workspace?', send: KEYS.enter },
      ],
      env,
    );
    expect(code, output).toBe(0);
    // The summary before the confirmation.
    expect(output).toMatch(/Name\s+pty-ws/);
    // The summary names the project and the pool; no ids.
    expect(output).toMatch(/Project\s+Default Project\r?\n/);
    expect(output).toContain(`Execution mode  agent (pool builders)`);
    expect(output).toMatch(/Tags\s+env=pty, team=x/);
    expect(output).toMatch(/Created workspace pty-ws \(ws-/);

    const shown = await runCli(
      ['workspace', 'show', 'acme/pty-ws', '--include', 'effective_tag_bindings', '--json-document'],
      env,
    );
    const doc = JSON.parse(shown.stdout);
    expect(doc.data.attributes).toMatchObject({
      name: 'pty-ws',
      description: 'made in a terminal',
      'auto-apply': true,
      'execution-mode': 'agent',
    });
    expect(doc.data.relationships['agent-pool'].data.id).toBe(poolId);
    expect(doc.included.map((t: any) => `${t.attributes.key}=${t.attributes.value}`)).toEqual(['env=pty', 'team=x']);
  });

  it('declining the confirmation creates nothing (exit 2)', async () => {
    const { code, output } = await runCliInPty(
      ['workspace', 'create', '--org', 'acme'],
      [
        { expect: 'Workspace name', send: `declined${KEYS.enter}` },
        { expect: 'Execution mode', send: KEYS.enter },
        { expect: 'Description', send: KEYS.enter },
        { expect: 'Apply automatically', send: KEYS.enter },
        { expect: 'Tags', send: KEYS.enter },
        { expect: 'Create this workspace?', send: `n${KEYS.enter}` },
      ],
      env,
    );
    expect(code, output).toBe(2);
    expect(output).toContain('aborted');
    expect((await runCli(['workspace', 'show', 'acme/declined'], env)).code).toBe(3);
  });

  it('with NAME given, a terminal is not asked anything', async () => {
    const { code, output } = await runCliInPty(['workspace', 'create', 'named', '--org', 'acme'], [], env);
    expect(code, output).toBe(0);
    expect(output).not.toContain('?');
    expect(output).toMatch(/Created workspace named/);
  });
});

describe('interactiveCreateFlow with injected prompts', () => {
  const fakePrompts = (answers: unknown[]) => {
    const asked: string[] = [];
    const notes: string[] = [];
    const next = (message: string) => {
      asked.push(message);
      if (answers.length === 0) throw new Error(`unexpected prompt ${message}`);
      return Promise.resolve(answers.shift() as any);
    };
    const prompts: FlowPrompts = { input: next, select: next, confirm: next, note: (l) => notes.push(l) };
    return { prompts, asked, notes };
  };
  const data = {
    projects: () =>
      Promise.resolve([
        { id: 'prj-A', name: 'Alpha' },
        { id: 'prj-B', name: 'Beta' },
      ]),
    agentPools: () => Promise.resolve([] as { id: string; name: string }[]),
  };

  it('picks the project from a list and skips what flags already gave', async () => {
    const { prompts, asked, notes } = fakePrompts(['  named ', 'prj-B', '', '', true]);
    const out = await interactiveCreateFlow(prompts, data, { 'execution-mode': 'local', 'auto-apply': false });
    expect(asked).toEqual([
      'Workspace name',
      'Project',
      'Description (optional)',
      'Tags, key=value separated by commas (optional)',
      'Create this workspace?',
    ]);
    expect(out).toEqual({ name: 'named', project: 'prj-B' });
    expect(notes.join('\n')).toMatch(/Project\s+Beta$/m);
  });

  it('checks that the name is free as soon as it is typed', async () => {
    const validations: (true | string)[] = [];
    const prompts: FlowPrompts = {
      input: async (message, options) => {
        if (message === 'Workspace name' && options?.validate) {
          validations.push(
            await options.validate('taken'),
            await options.validate('bad name!'),
            await options.validate('free'),
          );
          return 'free';
        }
        return '';
      },
      select: (_message, choices) => Promise.resolve(choices[0].value),
      confirm: () => Promise.resolve(true),
      note: () => undefined,
    };
    const out = await interactiveCreateFlow(prompts, { ...data, nameTaken: (n) => Promise.resolve(n === 'taken') }, {});
    expect(validations[0]).toBe('a workspace named taken already exists in this organization; choose another name');
    expect(validations[1]).toMatch(/only letters, numbers/);
    expect(validations[2]).toBe(true);
    expect(out?.name).toBe('free');
  });

  it('describes the execution modes truthfully: berth executes no runs itself', async () => {
    let modes: string[] = [];
    const prompts: FlowPrompts = {
      input: () => Promise.resolve('x'),
      select: (message, choices) => {
        if (message === 'Execution mode') modes = choices.map((c) => c.name);
        return Promise.resolve(choices[0].value);
      },
      confirm: () => Promise.resolve(true),
      note: () => undefined,
    };
    await interactiveCreateFlow(prompts, data, {});
    expect(modes.join('\n')).not.toMatch(/berth workers/);
    expect(modes.find((m) => m.startsWith('remote'))).toContain('runs execute on the berth server');
  });

  it('refuses agent mode when the organization has no agent pool', async () => {
    const { prompts } = fakePrompts(['x', 'prj-A', 'agent']);
    await expect(interactiveCreateFlow(prompts, data, {})).rejects.toThrow(/berth agent-pool create/);
  });
});
