import fc from 'fast-check';
import type { SeededOrg } from './seed.js';
import { ISOLATION_CASES } from './isolation-bodies.js';
import { fillPath, paramsOf, realParam, routeKey, type Route } from './routes.js';

/** One generated request, before the seeded values are put in. */
export interface FuzzRequest {
  route: Route;
  params: ParamChoice[];
  query: string;
  body: BodyChoice;
  contentType: string | null;
  auth: 'admin' | 'owner' | 'none' | 'garbage' | 'other-scheme';
}

type ParamChoice = { kind: 'real' } | { kind: 'other' } | { kind: 'hostile'; raw: string };
export type BodyChoice =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: number[] };

const hostileSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '%2e%2e',
    '.',
    '%00',
    'a%00b',
    '%',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    'ü',
    '%C3%BC',
    '😀',
    '%F0%9F%98%80',
    '',
    ' ',
    '%20',
    'null',
    'undefined',
    '0',
    '-1',
    'ws-',
    'ws-AAAAAAAAAAAAAAAA',
    "'; drop table workspaces; --",
    '%27%22',
    '..%2f..%2f',
    '%2F',
    'a'.repeat(5000),
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
);

const QUERY_KEYS = [
  'page[number]',
  'page[size]',
  'page%5Bnumber%5D',
  'page%5Bsize%5D',
  'include',
  'q',
  'sort',
  'name',
  'secret',
  'expires',
  'signature',
  'search[name]',
  'search[tags]',
  'search[exclude-tags]',
  'search[wildcard-name]',
  'filter[project][id]',
  'filter[tagged][0][key]',
  'filter[tagged][0][value]',
  'filter[tagged][99999999999999999999][key]',
  'filter[tagged][1][value]',
  'filter[current-run][status]',
  'filter[names]',
  'filter[permissions][update]',
  'filter[permissions][create-workspace]',
  'filter[exclude][taggable][id]',
  'filter[workspace][id]',
  'filter%5Btagged%5D%5B0%5D%5Bkey%5D',
];
const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1',
    '2',
    '100',
    '101',
    '1e309',
    '99999999999999999999',
    '9007199254740993',
    'NaN',
    '1.5',
    '0x10',
    '',
    '%',
    '%zz',
    '%00',
    '*',
    '*web*',
    'web*',
    '-name',
    'name',
    'current_run,locked_by',
    'effective_tag_bindings',
    'bogus',
    'true',
    'false',
    'planning,applied',
    ',,,',
    '%E0%A4%A',
    '😀',
    '..',
  ),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.string({ maxLength: 30 }),
);
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 12 }).map(encodeURIComponent)),
      queryValue,
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v.replace(/[#\s]/g, encodeURIComponent)}`).join('&')}`,
  );

const ATTRIBUTE_NAMES = [
  'name',
  'description',
  'email',
  'username',
  'is-site-admin',
  'execution-mode',
  'operations',
  'auto-apply',
  'terraform-version',
  'working-directory',
  'trigger-prefixes',
  'trigger-patterns',
  'tag-names',
  'vcs-repo',
  'agent-pool-id',
  'setting-overwrites',
  'auto-destroy-at',
  'auto-destroy-activity-duration',
  'inherits-project-auto-destroy',
  'default-execution-mode',
  'source-name',
  'source-url',
  'reason',
  'access',
  'runs',
  'variables',
  'state-versions',
  'sentinel-mocks',
  'workspace-locking',
  'custom',
  'project-access',
  'workspace-access',
  'organization-access',
  'visibility',
  'sso-team-id',
  'serial',
  'md5',
  'lineage',
  'state',
  'message',
  'is-destroy',
  'status',
  'at',
  'error-message',
  'policy-check-failed',
  'key',
  'value',
  'id',
  'service-provider',
  'delete-older-than-n-days',
  'allow-destroy-plan',
  'global-remote-state',
  'queue-all-runs',
  'speculative-enabled',
];
const RESOURCE_TYPES = [
  'workspaces',
  'projects',
  'organizations',
  'teams',
  'users',
  'team-projects',
  'team-workspaces',
  'tag-bindings',
  'tags',
  'ssh-keys',
  'agent-pools',
  'oauth-tokens',
  'state-versions',
  'runs',
  'run-reports',
  'authentication-tokens',
  'data-retention-policy-delete-olders',
  'data-retention-policy-dont-deletes',
  'data-retention-policies',
];

const hugeString = fc.constantFrom(1000, 70_000, 300_000).map((n) => 'x'.repeat(n));
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1,
      1.5,
      1e308,
      -0,
      Number.MAX_SAFE_INTEGER + 1,
      '',
      'remote',
      'agent',
      'local',
      'write',
      'admin',
      'read',
      'plan',
      'custom',
      'none',
      '1.5.7',
      '~> 1.5',
      '14d',
      '0h',
      '2030-01-01T00:00:00Z',
      '2024-02-31T00:00:00Z',
      '2024-01-01T24:00:00+99:00',
      'not-a-date',
      'planning',
      'applied',
      'errored',
      'acme/repo',
      'Name with spaces',
      'ok-name',
      'hc:x',
      '\u0000',
      '\uD800',
      '😀',
      'ü',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: hugeString },
);
const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom(
        ...ATTRIBUTE_NAMES,
        'identifier',
        'oauth-token-id',
        'branch',
        'tags-regex',
        'read-workspaces',
        'manage-projects',
        'locking',
      ),
      leaf,
      { maxKeys: 4 },
    ),
  },
);
const attributes = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(fc.constantFrom(...ATTRIBUTE_NAMES), jsonish, { maxKeys: 6 }) },
  { weight: 1, arbitrary: jsonish },
);

/** A relationship member naming a seeded id (a marker replaced later), garbage, or an array. */
const relationshipData = fc.oneof(
  fc
    .constantFrom(
      '$workspaceId',
      '$projectId',
      '$teamId',
      '$consumerId',
      '$sshKeyId',
      '$otherWorkspaceId',
      '$defaultProjectId',
    )
    .map((id) => ({ type: 'workspaces', id })),
  fc.constantFrom('$projectId', '$defaultProjectId', '$teamId').map((id) => ({ type: 'projects', id })),
  fc.constantFrom('$teamId').map((id) => ({ type: 'teams', id })),
  fc.array(
    fc.record({
      type: fc.constantFrom('tag-bindings', 'workspaces', 'tags'),
      attributes: fc.dictionary(fc.constantFrom('key', 'value', 'name'), leaf, { maxKeys: 2 }),
    }),
    { maxLength: 12 },
  ),
  jsonish,
);
const relationships = fc.dictionary(
  fc.constantFrom('project', 'tag-bindings', 'team', 'workspace', 'workspaces', 'tags', 'organization'),
  fc.oneof(fc.record({ data: relationshipData }), jsonish),
  { maxKeys: 3 },
);

const resourceData = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...RESOURCE_TYPES), leaf),
    id: fc.oneof(fc.constantFrom('$workspaceId', '$sshKeyId', '$consumerId', '$ownerUsername'), leaf),
    attributes,
    relationships,
  },
  { requiredKeys: [] },
);
const arrayData = fc.array(
  fc.oneof(
    fc.record({
      type: fc.constantFrom('workspaces', 'tag-bindings', 'tags', 'users'),
      id: fc.constantFrom(
        '$workspaceId',
        '$consumerId',
        '$otherWorkspaceId',
        '$tagId',
        '$ownerUsername',
        '$memberUsername',
        'nope',
      ),
    }),
    fc.record({
      type: fc.constantFrom('tag-bindings', 'tags'),
      attributes: fc.dictionary(fc.constantFrom('key', 'value', 'name'), leaf, { maxKeys: 3 }),
    }),
    jsonish,
  ),
  { maxLength: 12 },
);

const deepNesting = fc.tuple(fc.constantFrom('[', '{"a":'), fc.integer({ min: 100, max: 100_000 })).map(([open, n]) => {
  const close = open === '[' ? ']' : '}';
  return `{"data":${open.repeat(n)}1${close.repeat(n)}}`;
});
const rawText = fc.oneof(
  deepNesting,
  fc.constantFrom(
    '{"data":{"type":"workspaces","type":"projects","attributes":{"name":"a","name":"b"}}}',
    '{"data":{"type":"workspaces","attributes":{"name":"dup"},"attributes":[]}}',
    '{"data":[],"data":{"type":"workspaces"}}',
    '{"data":{"type":"workspaces","attributes":{"name":"x"}}',
    '{',
    '[]',
    '"data"',
    'null',
    '1',
    'true',
    '{"data":null}',
    '{"__proto__":{"admin":true},"data":{"type":"workspaces"}}',
    '{"data":{"type":"workspaces","attributes":{"constructor":{"prototype":{"x":1}}}}}',
    '\uFEFF{"data":{}}',
    '{"data":{}}\u0000',
  ),
  fc.string({ maxLength: 60 }),
);
const invalidUtf8 = fc
  .tuple(
    fc.constantFrom(
      '{"data":{"type":"workspaces","attributes":{"name":"',
      '{"data":[{"type":"tag-bindings","attributes":{"key":"',
      '{"reason":"',
    ),
    fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 8 }),
  )
  .map(([prefix, bad]) => [...Buffer.from(prefix), ...bad, ...Buffer.from('"}}}')]);

const body: fc.Arbitrary<BodyChoice> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) },
  { weight: 6, arbitrary: resourceData.map((d): BodyChoice => ({ kind: 'json', value: { data: d } })) },
  { weight: 3, arbitrary: arrayData.map((d): BodyChoice => ({ kind: 'json', value: { data: d } })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ reason: jsonish, data: jsonish }, { requiredKeys: [] })
      .map((v): BodyChoice => ({ kind: 'json', value: v })),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v): BodyChoice => ({ kind: 'json', value: v })) },
  { weight: 2, arbitrary: rawText.map((text): BodyChoice => ({ kind: 'text', text })) },
  { weight: 1, arbitrary: invalidUtf8.map((bytes): BodyChoice => ({ kind: 'bytes', bytes })) },
);

const param: fc.Arbitrary<ParamChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<ParamChoice>({ kind: 'real' }) },
  { weight: 1, arbitrary: fc.constant<ParamChoice>({ kind: 'other' }) },
  { weight: 3, arbitrary: hostileSegment.map((raw): ParamChoice => ({ kind: 'hostile', raw })) },
);

export function fuzzRequest(routes: Route[]): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) =>
    fc.record({
      route: fc.constant(route),
      params: fc.tuple(...paramsOf(route.path).map(() => param)),
      query,
      body,
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/vnd.api+json') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<string | null>(
            null,
            'application/json',
            'application/vnd.api+json; charset=utf-8',
            'text/plain',
            'multipart/form-data; boundary=x',
            ';;;',
            'application/x-www-form-urlencoded',
          ),
        },
      ),
      auth: fc.oneof(
        { weight: 8, arbitrary: fc.constant('admin' as const) },
        { weight: 4, arbitrary: fc.constant('owner' as const) },
        { weight: 1, arbitrary: fc.constantFrom('none' as const, 'garbage' as const, 'other-scheme' as const) },
      ),
    }),
  );
}

/** Replaces the `$name` markers of a generated body with the seeded values. */
export function withSeededIds(value: unknown, s: SeededOrg, other: SeededOrg): unknown {
  if (typeof value === 'string' && value.startsWith('$')) {
    if (value === '$otherWorkspaceId') return other.workspaceId;
    const v = (s as unknown as Record<string, unknown>)[value.slice(1)];
    return typeof v === 'string' ? v : value;
  }
  if (Array.isArray(value)) return value.map((v) => withSeededIds(v, s, other));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSeededIds(v, s, other)]));
  }
  return value;
}

/** The request URL path (with query) for a generated request. */
export function pathOf(req: FuzzRequest, s: SeededOrg, other: SeededOrg): string {
  // Routes whose parameters realParam cannot name (the registry's) have them in their isolation case.
  const named = ISOLATION_CASES[routeKey(req.route)]?.params;
  const values = paramsOf(req.route.path).map((p, i) => {
    const choice = req.params[i];
    if (choice.kind === 'hostile') return choice.raw;
    const org = choice.kind === 'real' ? s : other;
    return encodeURIComponent(named ? named(org, org === s ? other : s)[i] : realParam(p, org));
  });
  return fillPath(req.route.path, values) + req.query;
}
