// The hostile-tenant scenario of issue 19 (item 1), shared by the memory benchmark and by
// test/reliability/memory-bound.test.ts: one ordinary user with four tokens creates an
// organization and 100 workspaces whose every free-text attribute is as long as the server lets
// it be, then hammers the list page of 100 workspaces with every include, from all four tokens at
// once, while the resident memory (VmRSS) of `berth serve` is sampled from /proc.
//
// The scenario learns the limits from the server: each attribute is first tried far over any
// sensible limit (most of the 1 MiB body); a 422 whose detail says "maximum is N" (or "at most N
// entries") makes it use N instead. A server without limits keeps the huge values, which is how
// the scenario crashed `serve` before the limits existed.
import { readFileSync } from 'node:fs';

/**
 * The resident-memory bound of the scenario (MB), asserted by the test and printed as the
 * benchmark's target: idle `serve` is near 110 MB, a quiet run peaks near 400 MB (V8 collects
 * lazily), the whole suite beside it on two cores pushed one run to 472 MB; without the limits
 * the same scenario passed 2.5 GB within seconds.
 */
export const MEMORY_BOUND_MB = 640;
export const WORKSPACES = 100;
export const TOKENS = 4;
/** Requests each token keeps in flight. */
export const LOOPS_PER_TOKEN = 4;

const INCLUDES = [
  'current_configuration_version',
  'current_configuration_version.ingress_attributes',
  'current_run',
  'current_run.configuration_version',
  'current_run.configuration_version.ingress_attributes',
  'current_run.plan',
  'current_state_version',
  'locked_by',
  'organization',
  'outputs',
  'project',
  'readme',
  'effective_tag_bindings',
];

/** Resident memory of a process in MB, or null once it is gone. */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** One request as `token`; a 429 is waited out (Retry-After) and sent again. */
export async function call(url, token, method, path, body) {
  for (;;) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/vnd.api+json',
        accept: 'application/vnd.api+json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 429) {
      await res.arrayBuffer();
      const wait = Number(res.headers.get('retry-after') ?? '1');
      await new Promise((r) => setTimeout(r, Math.max(50, Math.min(1000, wait * 1000))));
      continue;
    }
    const text = await res.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: kept as text.
    }
    return { status: res.status, json, text };
  }
}

/** `call`, which throws unless the status is one of `expected`. */
export async function ok(url, token, method, path, body, expected = [200, 201, 204]) {
  const r = await call(url, token, method, path, body);
  if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

/** The limit a 422 names ("maximum is N characters", "at most N entries"), or null. */
function limitOf(r) {
  if (r.status !== 422) return null;
  const detail = (r.json?.errors ?? []).map((e) => e.detail ?? '').join(' ');
  const m = /maximum is (\d+)|at most (\d+)/.exec(detail);
  return m ? Number(m[1] ?? m[2]) : null;
}

/**
 * The longest value of one text the server accepts, up to `hostile` characters: tried on a probe
 * workspace with `attributes(value)`; a "too long" 422 gives the limit to use.
 */
async function learnLength(url, token, path, hostile, attributes) {
  const r = await call(url, token, 'PATCH', path, { data: { type: 'workspaces', attributes: attributes(hostile) } });
  if (r.status === 200) return hostile;
  const max = limitOf(r);
  if (max === null) throw new Error(`probe of ${JSON.stringify(Object.keys(attributes('x')))}: ${r.status} ${r.text}`);
  return max;
}

/**
 * Sets up the hostile tenant on a running `serve` (`url`, a site-administrator `adminToken`):
 * returns its tokens, the organization and the figures learnt.
 */
export async function setUpHostileTenant(url, adminToken) {
  const suffix = Math.random().toString(36).slice(2, 8);
  const user = await ok(url, adminToken, 'POST', '/api/v2/admin/users', {
    data: { type: 'users', attributes: { username: `hostile-${suffix}`, email: `hostile-${suffix}@example.test` } },
  });
  const userId = user.json.data.id;
  const tokens = [];
  for (let i = 0; i < TOKENS; i++) {
    const t = await ok(url, adminToken, 'POST', `/api/v2/users/${userId}/authentication-tokens`, {
      data: { type: 'authentication-tokens', attributes: { description: `hostile ${i}` } },
    });
    tokens.push(t.json.data.attributes.token);
  }
  const [token] = tokens;
  const org = `hostile-${suffix}`;
  await ok(url, token, 'POST', '/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name: org, email: `${org}@example.test` } },
  });
  const oauth = await ok(url, token, 'POST', `/api/v2/organizations/${org}/oauth-tokens`, {
    data: { type: 'oauth-tokens', attributes: { 'service-provider': 'github', name: 'hostile' } },
  });
  const oauthTokenId = oauth.json.data.id;

  // What the server accepts, learnt on a probe workspace.
  const probe = await ok(url, token, 'POST', `/api/v2/organizations/${org}/workspaces`, {
    data: { type: 'workspaces', attributes: { name: 'probe' } },
  });
  const probePath = `/api/v2/workspaces/${probe.json.data.id}`;
  const len = {
    description: await learnLength(url, token, probePath, 900_000, (n) => ({ description: 'd'.repeat(n) })),
    workingDirectory: await learnLength(url, token, probePath, 10_000, (n) => ({ 'working-directory': 'w'.repeat(n) })),
    triggerEntry: await learnLength(url, token, probePath, 2_000, (n) => ({ 'trigger-prefixes': ['p'.repeat(n)] })),
    branch: await learnLength(url, token, probePath, 10_000, (n) => ({
      'vcs-repo': { identifier: 'hostile/repo', 'oauth-token-id': oauthTokenId, branch: 'b'.repeat(n) },
    })),
  };
  const entries = await learnLength(url, token, probePath, 1000, (n) => ({
    'trigger-prefixes': Array.from({ length: n }, (_, i) => `p${i}`),
  }));
  const create = await call(url, token, 'POST', `/api/v2/organizations/${org}/workspaces`, {
    data: { type: 'workspaces', attributes: { name: 'probe-source', 'source-name': 's'.repeat(10_000) } },
  });
  len.sourceName = create.status === 201 ? 10_000 : (limitOf(create) ?? 0);
  const createUrl = await call(url, token, 'POST', `/api/v2/organizations/${org}/workspaces`, {
    data: { type: 'workspaces', attributes: { name: 'probe-url', 'source-url': `https://${'u'.repeat(10_000)}` } },
  });
  len.sourceUrl = createUrl.status === 201 ? 10_000 : (limitOf(createUrl) ?? 8) - 8;
  const lock = await call(url, token, 'POST', `${probePath}/actions/lock`, { reason: 'r'.repeat(10_000) });
  len.lockReason = lock.status === 200 ? 10_000 : (limitOf(lock) ?? 0);
  if (lock.status === 200) await ok(url, token, 'POST', `${probePath}/actions/unlock`);

  // A server without limits takes the 900,000-character description, which fills the body on its
  // own: the other texts stay short there. Otherwise every text is filled up to its limit with a
  // character that costs the most bytes: four in UTF-8, and a JavaScript string that holds one
  // takes two bytes for every character of it.
  const unlimited = len.description > 100_000;
  if (unlimited) for (const k of Object.keys(len)) if (k !== 'description') len[k] = Math.min(len[k], 10);
  const fill = (n) => '\u{1F600}'.repeat(Math.max(0, n));
  const lists = unlimited ? 1 : entries;
  const ids = [];
  for (let i = 0; i < WORKSPACES; i++) {
    const ws = await ok(url, token, 'POST', `/api/v2/organizations/${org}/workspaces`, {
      data: {
        type: 'workspaces',
        attributes: {
          name: `ws-${String(i).padStart(3, '0')}`,
          description: unlimited ? 'd'.repeat(len.description) : fill(len.description),
          'source-name': fill(len.sourceName),
          'source-url': `https://${'u'.repeat(len.sourceUrl)}`,
          'working-directory': fill(len.workingDirectory),
          // Prefixes and patterns are alternatives (a workspace holds one list or the other).
          'trigger-prefixes': Array.from(
            { length: lists },
            (_, j) => `${j}${fill(len.triggerEntry - String(j).length)}`,
          ),
          'vcs-repo': { identifier: 'hostile/repo', 'oauth-token-id': oauthTokenId, branch: fill(len.branch) },
        },
        relationships: {
          'tag-bindings': {
            data: Array.from({ length: 10 }, (_, j) => ({
              type: 'tag-bindings',
              attributes: { key: `k${j}`.padEnd(128, 'k'), value: 'v'.repeat(256) },
            })),
          },
        },
      },
    });
    const id = ws.json.data.id;
    ids.push(id);
    // As many flat tags as a workspace may carry (the server says when it has had enough).
    for (let batch = 0; batch < 10; batch++) {
      const r = await call(url, token, 'POST', `/api/v2/workspaces/${id}/relationships/tags`, {
        data: Array.from({ length: 50 }, (_, j) => ({
          type: 'tags',
          attributes: { name: `t${batch * 50 + j}-`.padEnd(255, 'x') },
        })),
      });
      if (r.status !== 204) break;
    }
    await ok(url, token, 'POST', `/api/v2/workspaces/${id}/actions/lock`, { reason: fill(len.lockReason) });
  }
  return { tokens, org, workspaceIds: ids, lengths: { ...len, triggerEntries: entries } };
}

/**
 * Hammers the tenant's list page (100 workspaces, every include) and its tags from every token at
 * once for `seconds`, sampling the server's VmRSS every 50 ms. Stops early when the server is gone
 * or past `stopAboveMb`. Returns the peak, the requests answered and any unexpected statuses.
 */
export async function hammer(url, pid, tenant, { seconds, stopAboveMb = Infinity }) {
  const paths = [
    `/api/v2/organizations/${tenant.org}/workspaces?page%5Bsize%5D=100&include=${INCLUDES.join(',')}`,
    `/api/v2/organizations/${tenant.org}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=2&include=${INCLUDES.join(',')}`,
    `/api/v2/organizations/${tenant.org}/tags?page%5Bsize%5D=100`,
    `/api/v2/workspaces/${tenant.workspaceIds[0]}?include=${INCLUDES.join(',')}`,
  ];
  const until = Date.now() + seconds * 1000;
  let peak = rssMb(pid) ?? 0;
  let stopped = false;
  let gone = false;
  const sampler = setInterval(() => {
    const now = rssMb(pid);
    if (now === null) {
      gone = true;
      stopped = true;
      return;
    }
    peak = Math.max(peak, now);
    if (peak > stopAboveMb) stopped = true;
  }, 50);
  let answered = 0;
  let bytes = 0;
  let largest = 0;
  const unexpected = [];
  const loop = async (token, k) => {
    for (let i = k; Date.now() < until && !stopped; i++) {
      try {
        const r = await call(url, token, 'GET', paths[i % paths.length]);
        answered++;
        bytes += r.text.length;
        largest = Math.max(largest, r.text.length);
        if (r.status !== 200 && unexpected.length < 10) unexpected.push(`${r.status} ${r.text.slice(0, 200)}`);
      } catch (err) {
        if (!stopped) throw err;
        return;
      }
    }
  };
  try {
    await Promise.all(tenant.tokens.flatMap((t) => Array.from({ length: LOOPS_PER_TOKEN }, (_, k) => loop(t, k))));
  } finally {
    clearInterval(sampler);
  }
  const last = rssMb(pid);
  if (last !== null) peak = Math.max(peak, last);
  return {
    peakMb: peak,
    answered,
    largestAnswerBytes: largest,
    meanAnswerBytes: answered ? bytes / answered : 0,
    unexpected,
    gone,
  };
}
