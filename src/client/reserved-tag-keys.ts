import { notFound } from '../domain/common/errors.js';
import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource, SingleResult } from './jsonapi.js';
import type { ReservedTagKeyAttributes } from './resources.js';

/** Reserved tag keys of an organization. */
export class ReservedTagKeysClient {
  constructor(private readonly client: BerthClient) {}

  list(organization: string, options: ListAllOptions = {}): Promise<Resource<ReservedTagKeyAttributes>[]> {
    return this.client.listAll<ReservedTagKeyAttributes>(
      `/organizations/${encodeURIComponent(organization)}/reserved-tag-keys`,
      {},
      options,
    );
  }

  create(
    organization: string,
    key: string,
    disableOverrides?: boolean,
  ): Promise<SingleResult<ReservedTagKeyAttributes>> {
    return this.client.create<ReservedTagKeyAttributes>(
      `/organizations/${encodeURIComponent(organization)}/reserved-tag-keys`,
      'reserved-tag-keys',
      {
        key,
        'disable-overrides': disableOverrides,
      },
    );
  }

  update(
    id: string,
    changes: { key?: string; disableOverrides?: boolean },
  ): Promise<SingleResult<ReservedTagKeyAttributes>> {
    return this.client.update<ReservedTagKeyAttributes>(
      `/reserved-tag-keys/${encodeURIComponent(id)}`,
      'reserved-tag-keys',
      {
        key: changes.key,
        'disable-overrides': changes.disableOverrides,
      },
    );
  }

  delete(id: string): Promise<void> {
    return this.client.delete(`/reserved-tag-keys/${encodeURIComponent(id)}`);
  }

  /** A reserved key by its `rtk-` id, or by the key itself within the organization. */
  async resolve(organization: string | undefined, keyOrId: string): Promise<Resource<ReservedTagKeyAttributes>> {
    const byId = /^rtk-[A-Za-z0-9]{16}$/.test(keyOrId);
    if (!organization) throw notFound(`reserved tag key ${keyOrId}: name the organization with --org`);
    const found = (await this.list(organization)).find((k) => (byId ? k.id : k.attributes.key) === keyOrId);
    if (!found) throw notFound(`reserved tag key ${keyOrId} not found in organization ${organization}`);
    return found;
  }
}
