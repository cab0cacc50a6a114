import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/orgs/ORG/workspaces?search=x`): the server serves only `/` and the assets, and
 * the browser's back and forward buttons walk the pages and their queries.
 */
export type Route =
  | { page: 'organizations'; query: URLSearchParams }
  | { page: 'projects'; org: string; query: URLSearchParams }
  | { page: 'project'; org: string; id: string; query: URLSearchParams }
  | { page: 'workspaces'; org: string; query: URLSearchParams }
  | { page: 'workspace'; org: string; name: string; query: URLSearchParams }
  | { page: 'locks'; org: string; query: URLSearchParams }
  | { page: 'agents'; org: string; query: URLSearchParams }
  | { page: 'audit'; org: string; query: URLSearchParams }
  | { page: 'registry'; org: string; query: URLSearchParams }
  | { page: 'terraform-login'; query: URLSearchParams }
  | { page: 'not-found'; query: URLSearchParams };

/** The route of a hash (`#/orgs/acme/workspaces?page=2`). */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : raw.slice(q + 1));
  let parts: string[];
  try {
    parts = path
      .split('/')
      .filter((p) => p !== '')
      .map((p) => decodeURIComponent(p));
  } catch {
    return { page: 'not-found', query };
  }
  if (parts.length === 0) return { page: 'organizations', query };
  if (parts.length === 1 && parts[0] === 'terraform-login') return { page: 'terraform-login', query };
  if (parts[0] !== 'orgs' || parts.length < 2) return { page: 'not-found', query };
  const org = parts[1];
  const [, , section, name] = parts;
  if (section === undefined) return { page: 'workspaces', org, query };
  if (section === 'workspaces' && name !== undefined && parts.length === 4)
    return { page: 'workspace', org, name, query };
  if (section === 'projects' && name !== undefined && parts.length === 4)
    return { page: 'project', org, id: name, query };
  if (parts.length !== 3) return { page: 'not-found', query };
  if (
    section === 'projects' ||
    section === 'workspaces' ||
    section === 'locks' ||
    section === 'agents' ||
    section === 'audit' ||
    section === 'registry'
  )
    return { page: section, org, query };
  return { page: 'not-found', query };
}

/** The hash of a page with its query (empty values left out). */
export function href(path: string, params: Record<string, string | number | undefined | null> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

/** A path of the console with its names encoded. */
export function orgPath(org: string, ...rest: string[]): string {
  return ['/orgs', org, ...rest].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
}

/** The current route, following hash changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** Goes to a hash (a new history entry, so that back returns here). */
export function navigate(hash: string): void {
  if (location.hash !== hash) location.hash = hash;
}
