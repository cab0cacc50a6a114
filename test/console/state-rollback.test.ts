import { describe, expect, it } from 'vitest';
import type { Resource, WorkspaceAttributes } from '../../src/console/jsonapi.js';
import { lockPlan, mayRollBack, outputChanges } from '../../src/console/pages/workspace/state-rollback.js';

const out = (name: string, value: unknown, sensitive = false) => ({
  id: `wsout-${name}`,
  type: 'state-version-outputs',
  attributes: { name, value, sensitive },
});
const workspace = (attributes: Record<string, unknown>, lockedBy?: { type: string; id: string }) =>
  ({
    id: 'ws-1',
    type: 'workspaces',
    attributes: { locked: false, permissions: { 'can-create-state-versions': true }, ...attributes },
    relationships: { 'locked-by': { data: lockedBy ?? null } },
  }) as unknown as Resource<WorkspaceAttributes>;
const version = (status: string, current = false) => ({
  id: 'sv-1',
  type: 'state-versions',
  attributes: { status, current },
});

describe('the console’s state rollback: its pure pieces', () => {
  it('compares outputs: changed, added, removed; sensitive values masked', () => {
    expect(
      outputChanges(
        [out('url', 'b'), out('secret', 's1', true), out('gone', 1), out('same', [1])],
        [out('url', 'a'), out('secret', 's2', true), out('new', { k: 1 }), out('same', [1])],
      ),
    ).toEqual([
      { name: 'url', change: 'changed', before: '"b"', after: '"a"' },
      { name: 'secret', change: 'changed', before: '(sensitive)', after: '(sensitive)' },
      { name: 'new', change: 'added', before: null, after: '{"k":1}' },
      { name: 'gone', change: 'removed', before: '1', after: null },
    ]);
  });

  it('plans the lock: take it when unlocked, use the caller’s, stop at another’s', () => {
    const me = { type: 'users', id: 'user-me' };
    expect(lockPlan(workspace({}), me)).toBe('lock');
    expect(lockPlan(workspace({ locked: true }, me), me)).toBe('held');
    expect(lockPlan(workspace({ locked: true }, { type: 'users', id: 'user-other' }), me)).toBe('other');
    expect(lockPlan(workspace({ locked: true }, { type: 'teams', id: 'user-me' }), me)).toBe('other');
  });

  it('offers the rollback for finalized versions that are not current, to who may write the state', () => {
    expect(mayRollBack(workspace({}), version('finalized'))).toBe(true);
    expect(mayRollBack(workspace({}), version('finalized', true))).toBe(false);
    expect(mayRollBack(workspace({}), version('pending'))).toBe(false);
    expect(mayRollBack(workspace({}), version('backing_data_soft_deleted'))).toBe(false);
    expect(mayRollBack(workspace({ permissions: { 'can-create-state-versions': false } }), version('finalized'))).toBe(
      false,
    );
  });
});
