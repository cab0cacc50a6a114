// The load generator of the HTTP benchmarks, run in its own process by server.mjs: autocannon
// with the scenario given as JSON in argv[2]; prints a JSON summary on stdout.
//   read:  { mode: 'read', url, token, connections, duration }
//   write: { mode: 'write', url, token, organization, connections, count }
//   pairs: { mode: 'pairs', url, token, connections, count, idsFile } (a JSON array of workspace ids)
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2]);
const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/vnd.api+json' };

/**
 * Runs autocannon. A run of a fixed number of requests ends at autocannon's next one-second
 * tick after the last answer, so its own duration is rounded up to whole seconds: `elapsed` is
 * the time from the start to the last answer instead.
 */
function run(opts) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let last = started;
    const instance = autocannon({ url: options.url, ...opts, headers }, (err, result) =>
      err ? reject(err) : resolve({ ...result, elapsed: (last - started) / 1000 }),
    );
    instance.on('response', () => {
      last = performance.now();
    });
  });
}

function summary(r) {
  const seconds = r.amountBased ? r.elapsed : r.duration;
  return {
    requests: r.requests.total,
    seconds,
    perSecond: r.requests.total / seconds,
    averageRps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/**
 * `count` lock/unlock pairs, each on the next workspace of `ids`, so that no two connections
 * contend for the same lock.
 */
async function lockPairs(ids, count) {
  let k = 0;
  const pairs = await run({
    connections: options.connections,
    amount: count * 2,
    requests: [
      {
        method: 'POST',
        setupRequest: (req, context) => {
          context.id = ids[k++ % ids.length];
          return {
            ...req,
            path: `/api/v2/workspaces/${context.id}/actions/lock`,
            body: JSON.stringify({ reason: 'bench' }),
          };
        },
      },
      {
        method: 'POST',
        setupRequest: (req, context) => ({
          ...req,
          path: `/api/v2/workspaces/${context.id}/actions/unlock`,
          body: undefined,
        }),
      },
    ],
  });
  return summary({ ...pairs, amountBased: true });
}

if (options.mode === 'read') {
  const r = await run({
    connections: options.connections,
    duration: options.duration,
    url: options.url + options.path,
  });
  console.log(JSON.stringify(summary(r)));
} else if (options.mode === 'write') {
  // Creates: each request a new workspace name; the ids come back in the responses.
  const ids = [];
  let next = 0;
  // Unique across load generators running at once (two instances each take half the load).
  const prefix = `bench-${Date.now().toString(36)}-${process.pid}`;
  const creates = await run({
    connections: options.connections,
    amount: options.count,
    requests: [
      {
        method: 'POST',
        path: `/api/v2/organizations/${options.organization}/workspaces`,
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ data: { type: 'workspaces', attributes: { name: `${prefix}-${next++}` } } }),
        }),
        onResponse: (status, body) => {
          if (status === 201) ids.push(JSON.parse(body).data.id);
        },
      },
    ],
  });
  const created = summary({ ...creates, amountBased: true });
  const locked = await lockPairs(ids, options.count);
  console.log(
    JSON.stringify({
      created: { ...created, ids: ids.length },
      pairs: { ...locked, pairs: locked.requests / 2, pairsPerSecond: locked.perSecond / 2 },
    }),
  );
} else if (options.mode === 'pairs') {
  const locked = await lockPairs(JSON.parse(readFileSync(options.idsFile, 'utf8')), options.count);
  console.log(JSON.stringify({ ...locked, pairs: locked.requests / 2, pairsPerSecond: locked.perSecond / 2 }));
} else {
  throw new Error(`unknown mode ${options.mode}`);
}
