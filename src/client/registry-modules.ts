import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource } from './jsonapi.js';

/** A module of the private registry, as the API answers it (routes/registry/module-documents.ts). */
export interface RegistryModuleAttributes extends Record<string, unknown> {
  name: string;
  namespace: string;
  provider: string;
  'registry-name': string;
  status: string;
  'version-statuses': { version: string; status: string }[];
  'created-at': string;
  'updated-at': string;
}

export interface RegistryModuleVersionAttributes extends Record<string, unknown> {
  version: string;
  status: string;
  size: number;
  'created-at': string;
}

const enc = encodeURIComponent;
/** A private module's path of HCP's API: its namespace is its organization. */
const modulePath = (org: string, name: string, provider?: string) =>
  `/organizations/${enc(org)}/registry-modules/private/${enc(org)}/${enc(name)}${provider ? `/${enc(provider)}` : ''}`;

/** The private module registry (HCP's Private Registry Modules API). */
export class RegistryModulesClient {
  constructor(private readonly client: BerthClient) {}

  async create(org: string, name: string, provider: string): Promise<Resource<RegistryModuleAttributes>> {
    return (
      await this.client.create<RegistryModuleAttributes>(
        `/organizations/${enc(org)}/registry-modules`,
        'registry-modules',
        {
          name,
          provider,
          'registry-name': 'private',
        },
      )
    ).data;
  }

  list(org: string, options: ListAllOptions & { provider?: string; q?: string } = {}) {
    return this.client.listAll<RegistryModuleAttributes>(
      `/organizations/${enc(org)}/registry-modules`,
      { 'filter[provider]': options.provider, q: options.q },
      options,
    );
  }

  async get(org: string, name: string, provider: string): Promise<Resource<RegistryModuleAttributes>> {
    return (await this.client.get<RegistryModuleAttributes>(modulePath(org, name, provider))).data;
  }

  async version(org: string, name: string, provider: string, version: string) {
    return (
      await this.client.get<RegistryModuleVersionAttributes>(`${modulePath(org, name, provider)}/version`, {
        module_version: version,
      })
    ).data;
  }

  /** Creates a version (pending) and answers it with its upload link. */
  async createVersion(org: string, name: string, provider: string, version: string) {
    return (
      await this.client.create<RegistryModuleVersionAttributes>(
        `${modulePath(org, name, provider)}/versions`,
        'registry-module-versions',
        { version },
      )
    ).data;
  }

  /** PUTs a module archive (tar.gz) to a version's signed upload link. */
  async upload(uploadUrl: string, archive: Buffer): Promise<void> {
    await this.client.raw(uploadUrl, { method: 'PUT', body: archive, contentType: 'application/octet-stream' });
  }

  /** Deletes one version, one provider (`provider` given) or every provider of the name. */
  async delete(org: string, name: string, provider?: string, version?: string): Promise<void> {
    const base = modulePath(org, name, provider);
    await this.client.delete(version ? `${base}/${enc(version)}` : base);
  }
}
