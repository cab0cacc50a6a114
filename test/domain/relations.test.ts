import { describe, expect, it } from 'vitest';
import { BerthError } from '../../src/domain/common/errors.js';
import { parseFlatTagRefs } from '../../src/domain/workspaces/flat-tags.js';
import { parseIdentifiers } from '../../src/domain/common/identifiers.js';
import { parseRetentionPolicy } from '../../src/domain/instance/retention.js';
import { parseSshKeyAssignment, parseSshKeyInput } from '../../src/domain/organizations/ssh-key.js';
import { goTfeWorkspaceArray } from '../fixtures/go-tfe.js';

const pointers = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof BerthError) return err.items.map((i) => i.pointer ?? '');
    throw err;
  }
  throw new Error('expected a BerthError');
};

describe('relation request parsing', () => {
  it('parseIdentifiers reads only type and id of go-tfe full objects, de-duplicated', () => {
    expect(
      parseIdentifiers(goTfeWorkspaceArray(['ws-a', 'ws-b', 'ws-a']) as Record<string, unknown>, 'workspaces'),
    ).toEqual(['ws-a', 'ws-b']);
    expect(
      pointers(() =>
        parseIdentifiers({ data: [{ type: 'projects', id: 'x' }, { type: 'workspaces' }, null] }, 'workspaces'),
      ),
    ).toEqual(['/data/0/type', '/data/1/id', '/data/2']);
    expect(pointers(() => parseIdentifiers({}, 'workspaces'))).toEqual(['/data']);
  });

  it('parseFlatTagRefs lower-cases names, prefers ids, and reports at the given pointer', () => {
    expect(
      parseFlatTagRefs([
        { type: 'tags', attributes: { name: 'Team:Web' } },
        { type: 'tags', id: 'tag-1', attributes: { name: 'ignored' } },
      ]),
    ).toEqual([{ name: 'team:web' }, { id: 'tag-1' }]);
    expect(
      pointers(() =>
        parseFlatTagRefs([{ type: 'tags', attributes: { name: 'a b' } }], '/data/relationships/tags/data'),
      ),
    ).toEqual(['/data/relationships/tags/data/0/attributes/name']);
    expect(pointers(() => parseFlatTagRefs([{ type: 'tags', attributes: { name: 'x'.repeat(256) } }]))).toEqual([
      '/data/0/attributes/name',
    ]);
    expect(parseFlatTagRefs([{ type: 'tags', attributes: { name: 'x'.repeat(255) } }])).toHaveLength(1);
  });

  it('parseRetentionPolicy: both types, the legacy one, days of at least 1', () => {
    expect(
      parseRetentionPolicy({
        type: 'data-retention-policy-delete-olders',
        attributes: { 'delete-older-than-n-days': 1 },
      }),
    ).toEqual({ type: 'data-retention-policy-delete-olders', deleteOlderThanNDays: 1 });
    expect(
      parseRetentionPolicy({
        type: 'data-retention-policy-dont-deletes',
        attributes: { 'delete-older-than-n-days': 5 },
      }),
    ).toEqual({ type: 'data-retention-policy-dont-deletes', deleteOlderThanNDays: null });
    expect(
      parseRetentionPolicy({ type: 'data-retention-policies', attributes: { 'delete-older-than-n-days': 2 } })
        .deleteOlderThanNDays,
    ).toBe(2);
    expect(
      pointers(() =>
        parseRetentionPolicy({
          type: 'data-retention-policy-delete-olders',
          attributes: { 'delete-older-than-n-days': 0 },
        }),
      ),
    ).toEqual(['/data/attributes/delete-older-than-n-days']);
    expect(pointers(() => parseRetentionPolicy({ type: 'nope' }))).toEqual(['/data/type']);
  });

  it('parseSshKeyAssignment: both body forms, null unassigns', () => {
    expect(parseSshKeyAssignment({ data: { type: 'workspaces', attributes: { id: 'sshkey-x' } } })).toBe('sshkey-x');
    expect(parseSshKeyAssignment({ data: { type: 'workspaces', attributes: { id: null } } })).toBeNull();
    expect(parseSshKeyAssignment({ data: { type: 'ssh-keys', id: 'sshkey-y' } })).toBe('sshkey-y');
    expect(parseSshKeyAssignment({ data: null })).toBeNull();
    expect(pointers(() => parseSshKeyAssignment({ data: { type: 'ssh-keys', id: '' } }))).toEqual(['/data/id']);
    expect(pointers(() => parseSshKeyAssignment({ data: { type: 'teams' } }))).toEqual(['/data/type']);
  });

  it('parseSshKeyInput: both members on create, either on update, never blank', () => {
    expect(parseSshKeyInput({ name: 'n', value: 'v' }, 'create')).toEqual({ name: 'n', value: 'v' });
    expect(parseSshKeyInput({ name: 'n' }, 'update')).toEqual({ name: 'n' });
    expect(pointers(() => parseSshKeyInput({ name: ' ', value: 3 }, 'update'))).toEqual([
      '/data/attributes/name',
      '/data/attributes/value',
    ]);
  });
});
