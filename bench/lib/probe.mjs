// The latency probe of bench/tenant-fairness.mjs, in a process of its own so that the big answers
// the benchmark process reads for the hostile tenant never delay its timings. Each probe sends its
// paths one after the other (one request in flight), pausing `intervalMs` between two, for
// `seconds`; prints a JSON summary per probe on stdout.
//   { url, seconds, intervalMs, probes: [{ label, token?, paths }] }
const options = JSON.parse(process.argv[2]);

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function probe({ label, token, paths }) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  // One untimed request first: a fresh process's first fetch loads and compiles its HTTP client
  // and opens the connection (30-70 ms, measured), which is this process's cost, not the server's.
  await fetch(`${options.url}${paths[0]}`, { headers })
    .then((res) => res.arrayBuffer())
    .catch(() => undefined);
  const until = performance.now() + options.seconds * 1000;
  const times = [];
  let errors = 0;
  for (let i = 0; performance.now() < until; i++) {
    const started = performance.now();
    try {
      const res = await fetch(`${options.url}${paths[i % paths.length]}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
    } catch {
      errors++;
    }
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
  times.sort((a, b) => a - b);
  return [
    label,
    { requests: times.length, errors, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) },
  ];
}

const results = await Promise.all(options.probes.map(probe));
process.stdout.write(JSON.stringify(Object.fromEntries(results)));
