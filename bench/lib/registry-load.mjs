// The load generator of bench/registry.mjs, in its own process (as bench/lib/load.mjs): autocannon
// for `duration` seconds over `connections` connections, each request on a module of the seed
// drawn at random (a fixed sequence), so that no answer is computed from a warm row alone.
//   { url, token, connections, duration, kind, modules, versions, path? }
//   kind: 'versions' (GET .../:name/:provider/versions), 'download' (GET .../:version/download, a
//   random published version), 'path' (always `path`: the reference routes)
// Prints a JSON summary on stdout: requests, perSecond, p50, p99 (ms), errors, non2xx.
import autocannon from 'autocannon';
import { prng } from '../lib.mjs';
import { moduleOf, versionOf } from './registry-seed.mjs';

const options = JSON.parse(process.argv[2]);
const random = prng(44);
const pick = (n) => Math.floor(random() * n);

function nextPath() {
  if (options.kind === 'path') return options.path;
  const { name, provider } = moduleOf(pick(options.modules));
  const base = `/api/registry/v1/modules/bench/${name}/${provider}`;
  return options.kind === 'versions' ? `${base}/versions` : `${base}/${versionOf(pick(options.versions))}/download`;
}

const result = await new Promise((resolve, reject) => {
  autocannon(
    {
      url: options.url,
      connections: options.connections,
      duration: options.duration,
      headers: { authorization: `Bearer ${options.token}` },
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: nextPath() }) }],
    },
    (err, r) => (err ? reject(err) : resolve(r)),
  );
});
console.log(
  JSON.stringify({
    requests: result.requests.total,
    perSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }),
);
