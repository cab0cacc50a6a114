import { BerthError } from '../domain/common/errors.js';
import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource } from './jsonapi.js';
import { workspacePath } from './workspaces.js';

/** A variable as the API shows it: a sensitive one's value is never sent back (null). */
export interface VariableAttributes {
  [key: string]: unknown;
  key: string;
  value: string | null;
  description: string | null;
  category: 'terraform' | 'env';
  hcl: boolean;
  sensitive: boolean;
  'version-id'?: string;
}

export interface VarsetAttributes {
  [key: string]: unknown;
  name: string;
  description: string | null;
  global: boolean;
  priority: boolean;
}

/** What `set` sends: the value only when one is given (an update may change the description only). */
export interface VariableInput {
  key: string;
  category: 'terraform' | 'env';
  value?: string;
  description?: string;
  hcl?: boolean;
  sensitive?: boolean;
}

function body(input: VariableInput): Record<string, unknown> {
  const a: Record<string, unknown> = { key: input.key, category: input.category };
  if (input.value !== undefined) a.value = input.value;
  if (input.description !== undefined) a.description = input.description;
  if (input.hcl !== undefined) a.hcl = input.hcl;
  if (input.sensitive !== undefined) a.sensitive = input.sensitive;
  return a;
}

/** Creates the variable, or updates the one with its key and category: what `set` did. */
export interface SetResult {
  variable: Resource<VariableAttributes>;
  created: boolean;
}

/**
 * The variables of one collection (a workspace's `/vars`, a variable set's
 * `/relationships/vars`), by key and category as people name them.
 */
export class VariableCollection {
  constructor(
    private readonly client: BerthClient,
    private readonly base: string,
  ) {}

  list(options: ListAllOptions = {}): Promise<Resource<VariableAttributes>[]> {
    return this.client.listAll<VariableAttributes>(this.base, {}, options);
  }

  async find(key: string, category: 'terraform' | 'env'): Promise<Resource<VariableAttributes> | undefined> {
    return (await this.list()).find((v) => v.attributes.key === key && v.attributes.category === category);
  }

  async set(input: VariableInput): Promise<SetResult> {
    const existing = await this.find(input.key, input.category);
    if (existing) {
      const updated = await this.client.update<VariableAttributes>(
        `${this.base}/${encodeURIComponent(existing.id)}`,
        'vars',
        body(input),
      );
      return { variable: updated.data, created: false };
    }
    const created = await this.client.create<VariableAttributes>(this.base, 'vars', body(input));
    return { variable: created.data, created: true };
  }

  /** Deletes the variable of that key and category; a missing one is a 404 that says so. */
  async unset(key: string, category: 'terraform' | 'env', where: string): Promise<Resource<VariableAttributes>> {
    const existing = await this.find(key, category);
    if (!existing)
      throw new BerthError([
        {
          status: 404,
          title: 'not found',
          detail: `no ${category === 'env' ? 'environment' : 'Terraform'} variable ${key} in ${where}`,
        },
      ]);
    await this.client.delete(`${this.base}/${encodeURIComponent(existing.id)}`);
    return existing;
  }
}

/** A workspace's variables (`/workspaces/:id/vars`). */
export function workspaceVariables(client: BerthClient, workspaceId: string): VariableCollection {
  return new VariableCollection(client, `${workspacePath({ id: workspaceId })}/vars`);
}

/**
 * The variables that apply to a workspace after precedence (`/workspaces/:id/all-vars`): its own
 * (with a `configurable` relationship) and its sets' (with a `varset` relationship).
 */
export function workspaceAllVariables(
  client: BerthClient,
  workspaceId: string,
  options: ListAllOptions = {},
): Promise<Resource<VariableAttributes>[]> {
  return client.listAll<VariableAttributes>(`${workspacePath({ id: workspaceId })}/all-vars`, {}, options);
}

/** A variable set's variables (`/varsets/:id/relationships/vars`). */
export function varsetVariables(client: BerthClient, varsetId: string): VariableCollection {
  return new VariableCollection(client, `/varsets/${encodeURIComponent(varsetId)}/relationships/vars`);
}

/** Variable sets of an organization, by name. */
export class VarsetsClient {
  constructor(private readonly client: BerthClient) {}

  list(organization: string, options: ListAllOptions = {}): Promise<Resource<VarsetAttributes>[]> {
    return this.client.listAll<VarsetAttributes>(
      `/organizations/${encodeURIComponent(organization)}/varsets`,
      {},
      options,
    );
  }

  listOf(
    kind: 'workspaces' | 'projects',
    id: string,
    options: ListAllOptions = {},
  ): Promise<Resource<VarsetAttributes>[]> {
    return this.client.listAll<VarsetAttributes>(`/${kind}/${encodeURIComponent(id)}/varsets`, {}, options);
  }

  async get(id: string) {
    return this.client.get<VarsetAttributes>(`/varsets/${encodeURIComponent(id)}`, { include: 'vars' });
  }

  /** Creates a set of the organization, or owned by the project `parentProjectId` (its `parent`). */
  async create(
    organization: string,
    attributes: Partial<VarsetAttributes>,
    parentProjectId?: string,
  ): Promise<Resource<VarsetAttributes>> {
    return (
      await this.client.create<VarsetAttributes>(
        `/organizations/${encodeURIComponent(organization)}/varsets`,
        'varsets',
        attributes,
        parentProjectId ? { parent: { data: { type: 'projects', id: parentProjectId } } } : undefined,
      )
    ).data;
  }

  async update(id: string, attributes: Partial<VarsetAttributes>): Promise<Resource<VarsetAttributes>> {
    return (await this.client.update<VarsetAttributes>(`/varsets/${encodeURIComponent(id)}`, 'varsets', attributes))
      .data;
  }

  async delete(id: string): Promise<void> {
    await this.client.delete(`/varsets/${encodeURIComponent(id)}`);
  }

  /** Applies the set to (`add`) or removes it from (`remove`) workspaces or projects. */
  async relate(id: string, kind: 'workspaces' | 'projects', ids: string[], how: 'add' | 'remove'): Promise<void> {
    const path = `/varsets/${encodeURIComponent(id)}/relationships/${kind}`;
    const data = { data: ids.map((x) => ({ type: kind, id: x })) };
    if (how === 'add') await this.client.request('POST', path, { body: data });
    else await this.client.delete(path, data);
  }

  /** A set id from a `varset-` id or a set name in the organization. */
  async resolve(organization: string | undefined, set: string): Promise<string> {
    if (/^varset-[A-Za-z0-9]{16}$/.test(set)) return set;
    if (!organization)
      throw new BerthError([
        {
          status: 400,
          title: 'bad request',
          detail: `cannot find variable set ${set} without an organization: pass --org or a varset- id`,
        },
      ]);
    const found = (await this.list(organization)).filter((s) => s.attributes.name === set);
    if (found.length === 0)
      throw new BerthError([
        { status: 404, title: 'not found', detail: `variable set ${set} not found in organization ${organization}` },
      ]);
    return found[0].id;
  }
}
