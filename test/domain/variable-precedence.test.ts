import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  resolveVariables,
  type AppliedSet,
  type SetScope,
  type SourceVariable,
} from '../../src/domain/variables/variable-precedence.js';

const tf = (key: string, value: string, extra: Partial<SourceVariable> = {}): SourceVariable => ({
  key,
  value,
  category: 'terraform',
  hcl: false,
  sensitive: false,
  ...extra,
});
const env = (key: string, value: string) => tf(key, value, { category: 'env' });
const set = (name: string, scope: SetScope, priority: boolean, variables: SourceVariable[]): AppliedSet => ({
  id: `varset-${name}`,
  name,
  scope,
  priority,
  variables,
});
const winner = (r: ReturnType<typeof resolveVariables>, key: string) => r.terraform.find((v) => v.key === key)?.value;

describe('variable precedence', () => {
  it('workspace variables override every ordinary set', () => {
    for (const scope of ['global', 'project', 'workspace'] as const) {
      const r = resolveVariables({ workspace: [tf('x', 'ws')], sets: [set('S', scope, false, [tf('x', 'set')])] });
      expect(winner(r, 'x')).toBe('ws');
      expect(r.terraform[0].source).toEqual({ kind: 'workspace' });
    }
  });

  it('among ordinary sets: workspace-scoped over project-scoped over global, whatever the names', () => {
    const sets = [
      set('A-global', 'global', false, [tf('x', 'global')]),
      set('Z-workspace', 'workspace', false, [tf('x', 'workspace')]),
      set('M-project', 'project', false, [tf('x', 'project'), tf('y', 'project')]),
      set('B-global', 'global', false, [tf('y', 'global'), tf('z', 'global')]),
    ];
    const r = resolveVariables({ workspace: [], sets });
    expect(winner(r, 'x')).toBe('workspace');
    expect(winner(r, 'y')).toBe('project');
    expect(winner(r, 'z')).toBe('global');
  });

  it('priority sets override workspace variables; among them the broader scope wins', () => {
    const sets = [
      set('A', 'workspace', true, [tf('x', 'prio-ws'), tf('y', 'prio-ws'), tf('z', 'prio-ws')]),
      set('B', 'project', true, [tf('x', 'prio-project'), tf('y', 'prio-project')]),
      set('C', 'global', true, [tf('x', 'prio-global')]),
    ];
    const r = resolveVariables({ workspace: [tf('x', 'ws'), tf('y', 'ws'), tf('z', 'ws')], sets });
    expect(winner(r, 'x')).toBe('prio-global');
    expect(winner(r, 'y')).toBe('prio-project');
    expect(winner(r, 'z')).toBe('prio-ws');
  });

  it('same rank: the set whose name comes first in code point order wins, in any input order', () => {
    const a = set('A_Variable_Set', 'project', false, [tf('x', 'a')]);
    const b = set('B_Variable_Set', 'project', false, [tf('x', 'b')]);
    const lower = set('a_lower', 'project', false, [tf('x', 'lower')]);
    expect(winner(resolveVariables({ workspace: [], sets: [b, a, lower] }), 'x')).toBe('a');
    expect(winner(resolveVariables({ workspace: [], sets: [lower, b] }), 'x')).toBe('b');
    const pa = set('A', 'global', true, [tf('x', 'pa')]);
    const pb = set('B', 'global', true, [tf('x', 'pb')]);
    expect(winner(resolveVariables({ workspace: [], sets: [pb, pa] }), 'x')).toBe('pa');
  });

  it('orders by code points, not UTF-16 units', () => {
    // U+FF21 (fullwidth A) is below U+1F600 as a code point, above its high surrogate as a unit.
    expect(compareCodePoints('\uFF21', '\u{1F600}')).toBeLessThan(0);
    expect('\uFF21' < '\u{1F600}').toBe(false);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });

  it('categories do not conflict: an env variable and a Terraform variable of one key both stand', () => {
    const r = resolveVariables({
      workspace: [tf('x', 'tf')],
      sets: [set('P', 'global', true, [env('x', 'env')])],
    });
    expect(winner(r, 'x')).toBe('tf');
    expect(r.env).toEqual([{ key: 'x', value: 'env', hcl: false, sensitive: false, source: expect.anything() }]);
  });

  it('run variables override workspace variables and ordinary sets, and replace them in the list', () => {
    const r = resolveVariables({
      workspace: [tf('x', 'ws')],
      sets: [set('S', 'workspace', false, [tf('y', 'set')])],
      runVariables: [
        { key: 'x', value: 'run' },
        { key: 'y', value: 'run' },
      ],
    });
    expect(r.runVariables).toEqual([
      { key: 'x', value: 'run' },
      { key: 'y', value: 'run' },
    ]);
    expect(r.terraform).toEqual([]);
    expect(r.overriddenRunVariables).toEqual([]);
  });

  it('priority sets of every scope beat run variables, which are dropped', () => {
    for (const scope of ['global', 'project', 'workspace'] as const) {
      const r = resolveVariables({
        workspace: [],
        sets: [set('P', scope, true, [tf('x', 'prio')])],
        runVariables: [
          { key: 'x', value: 'run' },
          { key: 'other', value: 'run' },
        ],
      });
      expect(winner(r, 'x')).toBe('prio');
      expect(r.runVariables).toEqual([{ key: 'other', value: 'run' }]);
      expect(r.overriddenRunVariables).toEqual([{ key: 'x', varsetId: 'varset-P' }]);
    }
  });

  it('a priority env variable does not drop a run variable (run variables are Terraform variables)', () => {
    const r = resolveVariables({
      workspace: [],
      sets: [set('P', 'global', true, [env('x', 'prio')])],
      runVariables: [{ key: 'x', value: 'run' }],
    });
    expect(r.runVariables).toEqual([{ key: 'x', value: 'run' }]);
  });

  it('keeps hcl and sensitive of the winner and sorts by key', () => {
    const r = resolveVariables({
      workspace: [tf('b', '1')],
      sets: [set('S', 'global', false, [tf('a', '{x=1}', { hcl: true, sensitive: true })])],
    });
    expect(r.terraform.map((v) => [v.key, v.hcl, v.sensitive])).toEqual([
      ['a', true, true],
      ['b', false, false],
    ]);
  });
});
