import type { BerthClient, ListAllOptions } from './client.js';

/** A package pushed into a mirror, as `GET /organizations/:org/mirror-packages` answers it. */
export interface MirrorPackageAttributes extends Record<string, unknown> {
  hostname: string;
  namespace: string;
  'provider-type': string;
  version: string;
  os: string;
  arch: string;
  filename: string;
  size: number;
  hashes: string[];
  'created-at': string;
}

export interface MirrorProviderFilter {
  hostname?: string;
  namespace?: string;
  type?: string;
  version?: string;
}

/**
 * An organization's provider network mirror (`/api/registry/mirror/:org/`): what the mirror
 * already holds for a version (its `VERSION.json`), the push and delete of one archive, and the
 * list of every package pushed (`/api/v2/organizations/:org/mirror-packages`).
 */
export class ProviderMirrorClient {
  constructor(private readonly client: BerthClient) {}

  private path(org: string, hostname: string, namespace: string, type: string, file: string): string {
    const e = encodeURIComponent;
    return `/api/registry/mirror/${e(org)}/${e(hostname)}/${e(namespace)}/${e(type)}/${e(file)}`;
  }

  /** The hashes of each platform the mirror has of this version (empty when it has none). */
  async versionHashes(org: string, hostname: string, namespace: string, type: string, version: string) {
    const res = await this.client.registry('GET', this.path(org, hostname, namespace, type, `${version}.json`), {
      allow: [404],
    });
    if (res.status === 404) {
      await res.arrayBuffer();
      return new Map<string, string[]>();
    }
    const doc = (await res.json()) as { archives?: Record<string, { hashes?: string[] }> };
    return new Map(Object.entries(doc.archives ?? {}).map(([p, a]) => [p, a.hashes ?? []]));
  }

  packages(org: string, filter: MirrorProviderFilter = {}, options: ListAllOptions = {}) {
    return this.client.listAll<MirrorPackageAttributes>(
      `/organizations/${encodeURIComponent(org)}/mirror-packages`,
      {
        'filter[hostname]': filter.hostname,
        'filter[namespace]': filter.namespace,
        'filter[type]': filter.type,
        'filter[version]': filter.version,
      },
      options,
    );
  }

  async delete(org: string, a: { hostname: string; namespace: string; type: string; filename: string }) {
    const res = await this.client.registry('DELETE', this.path(org, a.hostname, a.namespace, a.type, a.filename));
    await res.arrayBuffer();
  }

  async push(
    org: string,
    a: { hostname: string; namespace: string; type: string; filename: string; file: string; hashes: string[] },
  ): Promise<{ size: number; hashes: string[] }> {
    const query = a.hashes
      .filter((h) => h.startsWith('h1:'))
      .map((h) => `hash=${encodeURIComponent(h)}`)
      .join('&');
    const path = this.path(org, a.hostname, a.namespace, a.type, a.filename) + (query ? `?${query}` : '');
    const res = await this.client.registry('PUT', path, { file: a.file });
    return (await res.json()) as { size: number; hashes: string[] };
  }
}
