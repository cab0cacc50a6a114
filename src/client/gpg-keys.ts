import type { BerthClient, ListAllOptions } from './client.js';
import type { ListResult, Resource, SingleResult } from './jsonapi.js';

/** A GPG key of the private provider registry, as the API answers it (routes/registry/provider-serializers.ts). */
export interface GpgKeyAttributes extends Record<string, unknown> {
  'ascii-armor': string;
  'key-id': string;
  namespace: string;
  source: string;
  'source-url': string | null;
  'trust-signature': string;
  'created-at': string;
  'updated-at': string;
}

const BASE = '/api/registry/private/v2/gpg-keys';
const enc = encodeURIComponent;

/**
 * HCP's GPG Keys API (`/api/registry/private/v2/gpg-keys`, outside /api/v2): the public keys whose
 * signatures of SHA256SUMS an organization's provider versions carry. A key's namespace is its
 * organization.
 */
export class GpgKeysClient {
  constructor(private readonly client: BerthClient) {}

  async add(org: string, asciiArmor: string): Promise<Resource<GpgKeyAttributes>> {
    const res = await this.client.registry('POST', BASE, {
      json: { data: { type: 'gpg-keys', attributes: { namespace: org, 'ascii-armor': asciiArmor } } },
    });
    return ((await res.json()) as SingleResult<GpgKeyAttributes>).data;
  }

  /** Every key of the organization, oldest first (the API pages them). */
  async list(org: string, options: ListAllOptions = {}): Promise<Resource<GpgKeyAttributes>[]> {
    const out: Resource<GpgKeyAttributes>[] = [];
    for (let page: number | null = 1; page !== null && (options.limit === undefined || out.length < options.limit);) {
      const res = await this.client.registry(
        'GET',
        `${BASE}?filter%5Bnamespace%5D=${enc(org)}&page%5Bnumber%5D=${page}&page%5Bsize%5D=100`,
      );
      const doc = (await res.json()) as ListResult<GpgKeyAttributes> & {
        meta?: { pagination?: { 'next-page': number | null } };
      };
      out.push(...doc.data);
      page = doc.meta?.pagination?.['next-page'] ?? null;
    }
    return options.limit === undefined ? out : out.slice(0, options.limit);
  }

  async delete(org: string, keyId: string): Promise<void> {
    const res = await this.client.registry('DELETE', `${BASE}/${enc(org)}/${enc(keyId)}`);
    await res.arrayBuffer();
  }
}
