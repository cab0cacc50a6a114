// The load generator of bench/mixed.mjs, run in its own process: autocannon with the mixed
// scenario in the JSON file named by argv[2]; prints a JSON summary (totals, and per kind of request the
// count, p50, p99, non-2xx answers and mean body size in bytes) on stdout.
//   { url, token, connections, duration, plan, reference }
// `plan` names what the requests act on (see bench/mixed.mjs). With `reference: true` every
// request goes to `/k/KIND` instead (the node:http reference answers by kind).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const options = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { plan } = options;
const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/vnd.api+json' };
const P = '/api/v2';

// A deterministic generator, so that two runs send the same sequence.
let seed = 12345;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const PAGE_SIZES = [20, 50, 100];

// Workspaces free for a lock/unlock pair: a pair takes one and gives it back once unlocked, so
// that no two connections ever hold or contend for the same lock.
const lockable = [...plan.lockIds];
let counter = 0;
const prefix = `mixed-${Date.now().toString(36)}-${process.pid}`;

/** The GETs, 70% of the requests. */
const reads = {
  'GET workspace by id': () => ({ path: `${P}/workspaces/${pick(plan.ids)}` }),
  'GET workspace by name': () => ({ path: `${P}/organizations/${plan.org}/workspaces/${pick(plan.names)}` }),
  'GET workspace list': () => {
    const size = PAGE_SIZES[counter % PAGE_SIZES.length];
    const list = `${P}/organizations/${plan.org}/workspaces?page%5Bsize%5D=${size}`;
    switch (counter++ % 3) {
      case 0:
        return { path: `${list}&search%5Bname%5D=${encodeURIComponent(pick(plan.names).slice(0, -1))}` };
      case 1:
        return {
          path: `${list}&filter%5Bproject%5D%5Bid%5D=${plan.projectId}&page%5Bnumber%5D=${1 + Math.floor(random() * 5)}`,
        };
      default:
        return { path: `${list}&search%5Btags%5D=${plan.tag}` };
    }
  },
  'GET current state version': () => ({ path: `${P}/workspaces/${pick(plan.stateIds)}/current-state-version` }),
};

/** Creates, updates and tag changes, 10% of the requests. */
const write = () => {
  const id = pick(plan.writeIds);
  switch (counter++ % 4) {
    case 0:
      return {
        kind: 'POST workspace (create)',
        method: 'POST',
        path: `${P}/organizations/${plan.org}/workspaces`,
        body: { data: { type: 'workspaces', attributes: { name: `${prefix}-${counter}` } } },
      };
    case 1:
      return {
        kind: 'PATCH workspace (description)',
        method: 'PATCH',
        path: `${P}/workspaces/${id}`,
        body: { data: { type: 'workspaces', attributes: { description: `changed ${counter}` } } },
      };
    case 2:
      return {
        kind: 'POST flat tags',
        method: 'POST',
        path: `${P}/workspaces/${id}/relationships/tags`,
        body: { data: [{ type: 'tags', attributes: { name: `t${counter % 50}` } }] },
      };
    default:
      return {
        kind: 'PATCH tag bindings',
        method: 'PATCH',
        path: `${P}/workspaces/${id}/tag-bindings`,
        body: { data: [{ type: 'tag-bindings', attributes: { key: `k${counter % 10}`, value: `v${counter}` } }] },
      };
  }
};

/** A request of `kind` for autocannon; the reference gets the same method and body at /k/KIND. */
function request(req, context, r) {
  context.kind = r.kind;
  const body = r.body === undefined ? undefined : JSON.stringify(r.body);
  const path = options.reference ? `/k/${encodeURIComponent(r.kind)}` : r.path;
  // A fresh headers object: autocannon writes the Content-Length of a body into it.
  return { ...req, method: r.method ?? 'GET', path, body, headers: { ...headers } };
}
/** Body sizes by kind (the reference answers each kind with as many bytes). */
const bodyBytes = new Map();
const reported = new Set();
function measured(status, body, context) {
  bodyBytes.set(context.kind, (bodyBytes.get(context.kind) ?? 0) + Buffer.byteLength(body));
  // MIXED_DEBUG=1: the first failure of each kind, on stderr.
  if (process.env.MIXED_DEBUG && (status < 200 || status > 299) && !reported.has(context.kind)) {
    reported.add(context.kind);
    console.error(`${context.kind}: ${status} ${body.slice(0, 300)}`);
  }
}
const get = (kind) => ({
  setupRequest: (req, context) => request(req, context, { kind, ...reads[kind]() }),
  onResponse: measured,
});

// One cycle of ten requests per connection: seven GETs, a lock/unlock pair, one write.
const cycle = [
  get('GET workspace by id'),
  get('GET workspace by name'),
  get('GET workspace list'),
  {
    setupRequest: (req, context) => {
      context.lockId = lockable.shift();
      return request(req, context, {
        kind: 'POST lock',
        method: 'POST',
        path: `${P}/workspaces/${context.lockId}/actions/lock`,
        body: { reason: 'mixed' },
      });
    },
    onResponse: measured,
  },
  {
    setupRequest: (req, context) =>
      request(req, context, {
        kind: 'POST unlock',
        method: 'POST',
        path: `${P}/workspaces/${context.lockId}/actions/unlock`,
      }),
    onResponse: (status, body, context) => {
      measured(status, body, context);
      lockable.push(context.lockId);
    },
  },
  get('GET workspace by id'),
  get('GET current state version'),
  get('GET workspace by id'),
  { setupRequest: (req, context) => request(req, context, write()), onResponse: measured },
  get('GET workspace by name'),
];

const kinds = new Map();
const started = performance.now();
const instance = autocannon(
  { url: options.url, connections: options.connections, duration: options.duration, requests: cycle },
  (err, result) => {
    if (err) throw err;
    const seconds = (performance.now() - started) / 1000;
    const out = {};
    for (const [kind, k] of kinds) {
      k.times.sort((a, b) => a - b);
      const at = (q) => k.times[Math.min(k.times.length - 1, Math.floor(q * k.times.length))];
      out[kind] = {
        count: k.times.length,
        p50: at(0.5),
        p99: at(0.99),
        non2xx: k.non2xx,
        bytes: Math.round((bodyBytes.get(kind) ?? 0) / Math.max(1, k.times.length)),
      };
    }
    console.log(
      JSON.stringify({
        requests: result.requests.total,
        seconds: result.duration ?? seconds,
        perSecond: result.requests.total / (result.duration ?? seconds),
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        kinds: out,
      }),
    );
  },
);
// Each answer, with its kind: the client's context still holds the kind of the request just
// answered (the next one is set up after this event).
instance.on('response', (client, status, _bytes, time) => {
  const kind = client.requestIterator.context.kind;
  let k = kinds.get(kind);
  if (!k) kinds.set(kind, (k = { times: [], non2xx: 0 }));
  k.times.push(time);
  if (status < 200 || status > 299) k.non2xx++;
});
