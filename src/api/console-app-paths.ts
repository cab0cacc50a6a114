/**
 * HCP Terraform's browser paths (`/app/...`, which the Terraform CLI prints: "To view this run in
 * a browser, visit: https://HOST/app/ORG/WS/runs/RUN", and which a workspace's `self-html` link
 * names) as the web console's hash routes (docs/console.md), for serve's 302 redirect:
 *
 * | HCP path | console |
 * |---|---|
 * | `/app`, anything unknown | `/#/` (organizations) |
 * | `/app/ORG`, `/app/ORG/workspaces` | `/#/orgs/ORG/workspaces` |
 * | `/app/ORG/workspaces/WS`, `/app/ORG/workspaces/WS/runs`, `/app/ORG/WS/runs` | `/#/orgs/ORG/workspaces/WS` |
 * | `/app/ORG/workspaces/WS/runs/RUN`, `/app/ORG/WS/runs/RUN` | `/#/orgs/ORG/workspaces/WS?run=RUN` |
 *
 * Names are decoded from the request and encoded again for the hash, so nothing of the request
 * reaches the Location header but names in their encoded form.
 */
export function consoleLocationOf(pathname: string): string {
  const home = '/#/';
  let parts: string[];
  try {
    parts = pathname
      .split('/')
      .filter((p) => p !== '')
      .map((p) => decodeURIComponent(p));
  } catch {
    return home;
  }
  if (parts[0] !== 'app') return home;
  const rest = parts.slice(1);
  if (rest.some((p) => p === '' || p === '.' || p === '..')) return home;
  const e = encodeURIComponent;
  const workspaces = (org: string) => `/#/orgs/${e(org)}/workspaces`;
  const workspace = (org: string, ws: string, run?: string) =>
    `${workspaces(org)}/${e(ws)}${run === undefined ? '' : `?run=${e(run)}`}`;
  const [org, a, b, c, d] = rest;
  switch (rest.length) {
    case 1:
      return workspaces(org);
    case 2:
      return a === 'workspaces' ? workspaces(org) : home;
    case 3:
      if (a === 'workspaces') return workspace(org, b);
      return b === 'runs' ? workspace(org, a) : home;
    case 4:
      if (a === 'workspaces' && c === 'runs') return workspace(org, b);
      return b === 'runs' ? workspace(org, a, c) : home;
    case 5:
      return a === 'workspaces' && c === 'runs' ? workspace(org, b, d) : home;
    default:
      return home;
  }
}
