import { BerthError } from '../domain/common/errors.js';
import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource } from './jsonapi.js';
import type {
  RetentionPolicyAttributes,
  SshKeyAttributes,
  TagBindingAttributes,
  WorkspaceAttributes,
} from './resources.js';
import { workspacePath, type WorkspaceRef } from './workspaces.js';

const org = (name: string) => `/organizations/${encodeURIComponent(name)}`;

/** SSH keys of an organization; the key text is sent, never received. */
export class SshKeysClient {
  constructor(private readonly client: BerthClient) {}

  async create(organization: string, name: string, value: string): Promise<Resource<SshKeyAttributes>> {
    return (await this.client.create<SshKeyAttributes>(`${org(organization)}/ssh-keys`, 'ssh-keys', { name, value }))
      .data;
  }

  list(organization: string, options: ListAllOptions = {}): Promise<Resource<SshKeyAttributes>[]> {
    return this.client.listAll<SshKeyAttributes>(`${org(organization)}/ssh-keys`, {}, options);
  }

  async delete(id: string): Promise<void> {
    await this.client.delete(`/ssh-keys/${encodeURIComponent(id)}`);
  }

  /** A key id from an `sshkey-` id or a key name in the organization. */
  async resolve(organization: string | undefined, key: string): Promise<string> {
    if (/^sshkey-[A-Za-z0-9]{16}$/.test(key)) return key;
    if (!organization)
      throw new BerthError([
        {
          status: 400,
          title: 'bad request',
          detail: `cannot find SSH key ${key} without an organization: pass --org or an sshkey- id`,
        },
      ]);
    // Names are unique regardless of case on berth; an exact match wins on servers where they are not.
    const all = await this.list(organization);
    const exact = all.filter((k) => k.attributes.name === key);
    const found = exact.length > 0 ? exact : all.filter((k) => k.attributes.name.toLowerCase() === key.toLowerCase());
    if (found.length === 0)
      throw new BerthError([
        { status: 404, title: 'not found', detail: `SSH key ${key} not found in organization ${organization}` },
      ]);
    if (found.length > 1)
      throw new BerthError([
        {
          status: 409,
          title: 'conflict',
          detail: `${found.length} SSH keys are named ${key} (${found.map((k) => k.id).join(', ')}); give the sshkey- id of the one you mean`,
        },
      ]);
    return found[0].id;
  }

  /** Assigns (or with null unassigns) a key, with the body go-tfe sends; returns the workspace. */
  async assign(ref: WorkspaceRef, keyId: string | null): Promise<Resource<WorkspaceAttributes>> {
    const res = await this.client.request<{ data: Resource<WorkspaceAttributes> }>(
      'PATCH',
      `${workspacePath(ref)}/relationships/ssh-key`,
      { body: { data: { type: 'workspaces', attributes: { id: keyId } } } },
    );
    return res.body!.data;
  }
}

export type ConsumerChange = 'add' | 'remove' | 'set';
const CONSUMER_METHOD: Record<ConsumerChange, string> = { add: 'POST', remove: 'DELETE', set: 'PATCH' };

/** Remote state consumers, flat tags, tag bindings and data retention policies of a workspace. */
export class WorkspaceRelationsClient {
  constructor(private readonly client: BerthClient) {}

  consumers(ref: WorkspaceRef, options: ListAllOptions = {}): Promise<Resource<WorkspaceAttributes>[]> {
    return this.client.listAll<WorkspaceAttributes>(
      `${workspacePath(ref)}/relationships/remote-state-consumers`,
      {},
      options,
    );
  }

  async changeConsumers(ref: WorkspaceRef, change: ConsumerChange, ids: string[]): Promise<void> {
    await this.client.request(CONSUMER_METHOD[change], `${workspacePath(ref)}/relationships/remote-state-consumers`, {
      body: { data: ids.map((id) => ({ type: 'workspaces', id })) },
    });
  }

  tags(ref: WorkspaceRef, options: ListAllOptions = {}): Promise<Resource[]> {
    return this.client.listAll(`${workspacePath(ref)}/relationships/tags`, {}, options);
  }

  async changeTags(ref: WorkspaceRef, change: 'add' | 'remove', names: string[]): Promise<void> {
    await this.client.request(change === 'add' ? 'POST' : 'DELETE', `${workspacePath(ref)}/relationships/tags`, {
      body: { data: names.map((name) => ({ type: 'tags', attributes: { name } })) },
    });
  }

  organizationTags(organization: string, q?: string, options: ListAllOptions = {}): Promise<Resource[]> {
    return this.client.listAll(`${org(organization)}/tags`, { q }, options);
  }

  async tagBindings(ref: WorkspaceRef): Promise<Resource<TagBindingAttributes>[]> {
    return (
      (
        await this.client.request<{ data: Resource<TagBindingAttributes>[] }>(
          'GET',
          `${workspacePath(ref)}/tag-bindings`,
        )
      ).body?.data ?? []
    );
  }

  async addTagBindings(
    ref: WorkspaceRef,
    tags: { key: string; value: string }[],
  ): Promise<Resource<TagBindingAttributes>[]> {
    const body = { data: tags.map((t) => ({ type: 'tag-bindings', attributes: { key: t.key, value: t.value } })) };
    return (
      (
        await this.client.request<{ data: Resource<TagBindingAttributes>[] }>(
          'PATCH',
          `${workspacePath(ref)}/tag-bindings`,
          { body },
        )
      ).body?.data ?? []
    );
  }

  /**
   * Sets the workspace's own bindings to exactly `tags` (`PATCH .../relationships/tag-bindings`,
   * which replaces the set): how a binding is removed.
   */
  async replaceTagBindings(ref: WorkspaceRef, tags: { key: string; value: string }[]): Promise<void> {
    await this.client.request('PATCH', `${workspacePath(ref)}/relationships/tag-bindings`, {
      body: { data: tags.map((t) => ({ type: 'tag-bindings', attributes: { key: t.key, value: t.value } })) },
    });
  }

  async effectiveTagBindings(ref: WorkspaceRef): Promise<Resource<TagBindingAttributes>[]> {
    return (
      (
        await this.client.request<{ data: Resource<TagBindingAttributes>[] }>(
          'GET',
          `${workspacePath(ref)}/effective-tag-bindings`,
        )
      ).body?.data ?? []
    );
  }
}

/** The policy body: delete older than N days, or don't delete. */
export function retentionBody(days: number | null): unknown {
  return days === null
    ? { data: { type: 'data-retention-policy-dont-deletes' } }
    : { data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': days } } };
}

/** Data retention policies of a workspace (`ref`) or an organization (a name). */
/** The owner of the site-wide default policy (`RetentionClient` methods). */
export const SITE = Symbol('site');
export type SiteOwner = typeof SITE;

export class RetentionClient {
  constructor(private readonly client: BerthClient) {}

  /** A workspace, an organization (by name), or `'site'`: the instance's site-wide default. */
  private path(owner: WorkspaceRef | string | SiteOwner): string {
    if (owner === SITE) return '/admin/data-retention-policy-settings';
    return `${typeof owner === 'string' ? org(owner) : workspacePath(owner)}/relationships/data-retention-policy`;
  }

  async show(owner: WorkspaceRef | string | SiteOwner): Promise<Resource<RetentionPolicyAttributes>> {
    return (await this.client.request<{ data: Resource<RetentionPolicyAttributes> }>('GET', this.path(owner))).body!
      .data;
  }

  async set(
    owner: WorkspaceRef | string | SiteOwner,
    days: number | null,
  ): Promise<Resource<RetentionPolicyAttributes>> {
    return (
      await this.client.request<{ data: Resource<RetentionPolicyAttributes> }>('POST', this.path(owner), {
        body: retentionBody(days),
      })
    ).body!.data;
  }

  async delete(owner: WorkspaceRef | string | SiteOwner): Promise<void> {
    await this.client.request('DELETE', this.path(owner));
  }

  /** What `prune` would delete now (nothing is deleted). */
  async previewPrune(): Promise<Resource> {
    return (await this.client.request<{ data: Resource }>('GET', '/admin/maintenance/prune')).body!.data;
  }

  async prune(): Promise<Resource> {
    return (await this.client.request<{ data: Resource }>('POST', '/admin/maintenance/prune')).body!.data;
  }
}
