import type { BerthClient } from './client.js';

/**
 * An organization's provider network mirror (`/api/registry/mirror/:org/`): what the mirror
 * already holds for a version (its `VERSION.json`), and the push of one archive.
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
