import { describe, expect, it } from 'vitest';
import { durationMs, isValidDuration } from '../../src/domain/common/duration.js';
import { BerthError } from '../../src/domain/common/errors.js';
import { looksLikeId, newId } from '../../src/domain/common/ids.js';
import { parsePage, totalPages } from '../../src/domain/common/paging.js';
import { can } from '../../src/domain/permissions/policy.js';
import { checkBindingCount, mergeBindings, parseTagBindings } from '../../src/domain/workspaces/tags.js';
import { hashToken, sameHash } from '../../src/domain/identity/token.js';

const tb = (key: string, value = '') => ({ type: 'tag-bindings', attributes: { key, value } });
const failure = (fn: () => unknown): BerthError => {
  try {
    fn();
  } catch (e) {
    return e as BerthError;
  }
  throw new Error('expected a failure');
};

describe('ids', () => {
  it('are a prefix plus 16 characters of [A-Za-z0-9], and unique', () => {
    const ids = new Set(Array.from({ length: 500 }, () => newId('ws')));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(looksLikeId('ws', id)).toBe(true);
  });
});

describe('durations', () => {
  it.each(['1d', '14d', '9999h', '0010h'])('accepts %s', (d) => expect(isValidDuration(d)).toBe(true));
  it.each(['0d', '10000d', '20m', 'd', '1.5d', ' 1d', '-1d', ''])('rejects %s', (d) =>
    expect(isValidDuration(d)).toBe(false),
  );
  it('converts to milliseconds', () => {
    expect(durationMs('2d')).toBe(172_800_000);
    expect(durationMs('3h')).toBe(10_800_000);
  });
});

describe('paging', () => {
  it('defaults to page 1 of 20', () => expect(parsePage(undefined, undefined)).toEqual({ number: 1, size: 20 }));
  it.each(['0', '101', 'abc', '-1', '1.5'])('rejects page[size]=%s', (s) => {
    expect(failure(() => parsePage('1', s)).detail).toBe('page[size] must be between 1 and 100');
  });
  it('counts at least one page', () => {
    expect(totalPages(0, 20)).toBe(1);
    expect(totalPages(45, 20)).toBe(3);
  });
});

describe('tag bindings', () => {
  it('reads key and value, ignoring extra members', () => {
    expect(
      parseTagBindings(
        [
          { ...tb('env', 'prod'), id: 'x', relationships: {} },
          { type: 'tag-bindings', attributes: { key: 'team' } },
        ],
        '/data',
      ),
    ).toEqual([
      { key: 'env', value: 'prod' },
      { key: 'team', value: '' },
    ]);
  });
  it('rejects reserved prefixes, long keys and values, bad characters, duplicates and wrong types, all at once', () => {
    const err = failure(() =>
      parseTagBindings(
        [
          tb('hc:x'),
          tb('HCP:y'),
          tb('k'.repeat(129)),
          tb('ok', 'v'.repeat(257)),
          tb('a b'),
          tb('dup'),
          tb('dup'),
          { type: 'tags', attributes: { key: 'z' } },
        ],
        '/data',
      ),
    );
    expect(err.status).toBe(422);
    expect(err.items.map((i) => i.pointer)).toEqual([
      '/data/0/attributes/key',
      '/data/1/attributes/key',
      '/data/2/attributes/key',
      '/data/3/attributes/value',
      '/data/4/attributes/key',
      '/data/6/attributes/key',
      '/data/7/type',
    ]);
  });
  it('accepts the longest key and value', () => {
    expect(parseTagBindings([tb('k'.repeat(128), 'v'.repeat(256))], '/d')).toHaveLength(1);
  });
  it('limits direct bindings to 10', () => {
    expect(() => checkBindingCount(10, '/d')).not.toThrow();
    expect(failure(() => checkBindingCount(11, '/d')).detail).toContain('cannot exceed 10');
  });
  it('merges by key without removing', () => {
    expect(
      mergeBindings(
        [
          { key: 'a', value: '1' },
          { key: 'b', value: '2' },
        ],
        [
          { key: 'b', value: '3' },
          { key: 'c', value: '' },
        ],
      ),
    ).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: '3' },
      { key: 'c', value: '' },
    ]);
  });
});

describe('tokens', () => {
  it('hash to SHA-256 hex and compare equal only to themselves', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sameHash(hashToken('a'), hashToken('a'))).toBe(true);
    expect(sameHash(hashToken('a'), hashToken('b'))).toBe(false);
  });
});

describe('policy', () => {
  const owners = {
    teamId: 't1',
    isOwners: true,
    manageProjects: true,
    manageWorkspaces: true,
    readProjects: true,
    readWorkspaces: true,
  };
  const none = {
    ...owners,
    isOwners: false,
    manageProjects: false,
    manageWorkspaces: false,
    readProjects: false,
    readWorkspaces: false,
  };
  const user = { kind: 'user' as const, tokenId: 'at', userId: 'u', username: 'u', siteAdmin: false };

  it('lets the site administrator do everything', () => {
    expect(can({ kind: 'site-admin', tokenId: null }, 'organization:delete', { organizationId: 'o', teams: [] })).toBe(
      true,
    );
  });
  it('lets owners manage and plain members only read', () => {
    expect(can(user, 'organization:update', { organizationId: 'o', teams: [owners] })).toBe(true);
    expect(can(user, 'organization:read', { organizationId: 'o', teams: [none] })).toBe(true);
    expect(can(user, 'organization:update', { organizationId: 'o', teams: [none] })).toBe(false);
    expect(can(user, 'organization:read', { organizationId: 'o', teams: [] })).toBe(false);
  });
  it('confines an organization token to its organization', () => {
    const orgToken = { kind: 'organization' as const, tokenId: 'at', organizationId: 'o' };
    expect(can(orgToken, 'project:create', { organizationId: 'o', teams: [] })).toBe(true);
    expect(can(orgToken, 'organization:read', { organizationId: 'other', teams: [] })).toBe(false);
    expect(can(orgToken, 'organization:create', null)).toBe(false);
  });
});

describe('close matches', async () => {
  const { closeMatches, editDistance } = await import('../../src/client/suggest.js');
  it('measures edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
  it('ranks near names first and drops far ones', () => {
    expect(closeMatches('app-prd', ['billing', 'app-prod', 'app-dev', 'app-prod-2'])).toEqual(['app-prod']);
    expect(closeMatches('app', ['billing', 'app-prod', 'app-dev'])).toEqual(['app-dev', 'app-prod']);
    expect(closeMatches('APP-PROD', ['app-prod'])).toEqual(['app-prod']);
    expect(closeMatches('zzz', ['billing', 'app-prod'])).toEqual([]);
  });
});
