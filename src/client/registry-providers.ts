import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource } from './jsonapi.js';

/** The provider registry's resources as the API answers them (routes/registry/provider-serializers.ts). */
export interface RegistryProviderAttributes extends Record<string, unknown> {
  name: string;
  namespace: string;
  'registry-name': 'private' | 'public';
  'created-at': string;
  'updated-at': string;
}

export interface ProviderVersionAttributes extends Record<string, unknown> {
  version: string;
  'key-id': string;
  protocols: string[];
  'shasums-uploaded': boolean;
  'shasums-sig-uploaded': boolean;
  'created-at': string;
}

export interface ProviderPlatformAttributes extends Record<string, unknown> {
  os: string;
  arch: string;
  filename: string;
  shasum: string;
  'provider-binary-uploaded': boolean;
}

/** How the API's paths name a provider. */
export interface ProviderRef {
  org: string;
  registryName: 'private' | 'public';
  namespace: string;
  name: string;
}

const enc = encodeURIComponent;
const providerPath = (p: ProviderRef) =>
  `/organizations/${enc(p.org)}/registry-providers/${p.registryName}/${enc(p.namespace)}/${enc(p.name)}`;
const versionPath = (p: ProviderRef, version: string) => `${providerPath(p)}/versions/${enc(version)}`;

/** HCP's Private Registry Providers, Provider Versions and Platforms APIs (under /api/v2). */
export class RegistryProvidersClient {
  constructor(private readonly client: BerthClient) {}

  list(org: string, options: ListAllOptions & { registryName?: string; q?: string } = {}) {
    return this.client.listPages<RegistryProviderAttributes>(
      `/organizations/${enc(org)}/registry-providers`,
      { 'filter[registry_name]': options.registryName, q: options.q, include: 'registry-provider-versions' },
      options,
    );
  }

  async get(p: ProviderRef): Promise<Resource<RegistryProviderAttributes>> {
    return (await this.client.get<RegistryProviderAttributes>(providerPath(p))).data;
  }

  async create(p: ProviderRef): Promise<Resource<RegistryProviderAttributes>> {
    return (
      await this.client.create<RegistryProviderAttributes>(
        `/organizations/${enc(p.org)}/registry-providers`,
        'registry-providers',
        { name: p.name, namespace: p.namespace, 'registry-name': p.registryName },
      )
    ).data;
  }

  delete(p: ProviderRef): Promise<void> {
    return this.client.delete(providerPath(p));
  }

  versions(p: ProviderRef, options: ListAllOptions = {}) {
    return this.client.listAll<ProviderVersionAttributes>(`${providerPath(p)}/versions`, {}, options);
  }

  async version(p: ProviderRef, version: string): Promise<Resource<ProviderVersionAttributes>> {
    return (await this.client.get<ProviderVersionAttributes>(versionPath(p, version))).data;
  }

  async createVersion(
    p: ProviderRef,
    attributes: { version: string; keyId: string; protocols: string[] },
  ): Promise<Resource<ProviderVersionAttributes>> {
    return (
      await this.client.create<ProviderVersionAttributes>(`${providerPath(p)}/versions`, 'registry-provider-versions', {
        version: attributes.version,
        'key-id': attributes.keyId,
        protocols: attributes.protocols,
      })
    ).data;
  }

  deleteVersion(p: ProviderRef, version: string): Promise<void> {
    return this.client.delete(versionPath(p, version));
  }

  platforms(p: ProviderRef, version: string) {
    return this.client.listAll<ProviderPlatformAttributes>(`${versionPath(p, version)}/platforms`);
  }

  async createPlatform(
    p: ProviderRef,
    version: string,
    attributes: { os: string; arch: string; shasum: string; filename: string },
  ): Promise<Resource<ProviderPlatformAttributes>> {
    return (
      await this.client.create<ProviderPlatformAttributes>(
        `${versionPath(p, version)}/platforms`,
        'registry-provider-platforms',
        attributes,
      )
    ).data;
  }

  /**
   * PUTs to one of the signed file links a version or platform hands out (`shasums-upload`,
   * `provider-binary-upload`, ...), through the client's own address: the link's path and query
   * are the credential. `file` is streamed from disk over HTTP.
   */
  async upload(link: string, body: { file: string } | { bytes: Buffer }): Promise<void> {
    const url = new URL(link);
    const res = await this.client.registry('PUT', `${url.pathname}${url.search}`, body);
    await res.arrayBuffer();
  }

  /** GETs what a signed download link names (`shasums-download`, ...). */
  async download(link: string): Promise<Buffer> {
    const url = new URL(link);
    const res = await this.client.registry('GET', `${url.pathname}${url.search}`);
    return Buffer.from(await res.arrayBuffer());
  }
}
