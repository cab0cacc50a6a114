import { useState } from 'preact/hooks';
import { query } from '../api.js';
import {
  findIncluded,
  relatedMany,
  type Collection,
  type Resource,
  type VariableAttributes,
  type VarsetAttributes,
} from '../jsonapi.js';
import { useApi } from '../use-api.js';
import { DataTable, ErrorMessage, LocalPager, Section } from './common.js';

type Variable = Resource<VariableAttributes>;
type Varset = Resource<VarsetAttributes>;

/**
 * A variable's value as shown: a sensitive one is only the word "sensitive", whatever the answer
 * held (the API sends null; nothing else of it may reach the page).
 */
function Value({ v }: { v: VariableAttributes }) {
  if (v.sensitive)
    return (
      <span class="badge masked" data-testid="variable-sensitive">
        sensitive
      </span>
    );
  if (v.value === null || v.value === '') return <span class="muted">(empty)</span>;
  return (
    <code class="var-value" data-testid="variable-value">
      {v.value}
    </code>
  );
}

/** Variables as a table: key, value (masked when sensitive), category, HCL, description. */
export function VariablesTable({
  vars,
  loading,
  empty,
}: {
  vars: Variable[] | undefined;
  loading: boolean;
  empty: string;
}) {
  return (
    <DataTable
      headings={['Key', 'Value', 'Category', 'HCL', 'Description']}
      loading={loading}
      skeleton={!vars && loading}
      skeletonRows={2}
    >
      {vars?.map((v) => (
        <tr key={v.id} data-testid="variable-row" data-key={v.attributes.key}>
          <td>
            <code data-testid="variable-key">{v.attributes.key}</code>
          </td>
          <td>
            <Value v={v.attributes} />
          </td>
          <td data-testid="variable-category">{v.attributes.category === 'env' ? 'env' : 'terraform'}</td>
          <td data-testid="variable-hcl">{v.attributes.hcl ? 'HCL' : ''}</td>
          <td data-testid="variable-description">{v.attributes.description ?? ''}</td>
        </tr>
      ))}
      {vars?.length === 0 && (
        <tr>
          <td colSpan={5} class="muted" data-testid="empty">
            {empty}
          </td>
        </tr>
      )}
    </DataTable>
  );
}

/** One set: its name, whether it is global and has priority, its description and variables. */
function VarsetItem({ set, included, level }: { set: Varset; included?: Resource[]; level: 'h3' | 'h4' }) {
  const Heading = level;
  const a = set.attributes;
  const vars = relatedMany(set, 'vars')
    .map((ref) => findIncluded(included, ref) as Variable | undefined)
    .filter((v): v is Variable => v !== undefined);
  return (
    <div class="varset" data-testid="varset" data-name={a.name}>
      <Heading>
        <span data-testid="varset-name">{a.name}</span>{' '}
        {a.global && (
          <span class="badge" data-testid="varset-global" title="applies to every workspace of the organization">
            global
          </span>
        )}{' '}
        {a.priority && (
          <span class="badge locked" data-testid="varset-priority" title="wins over workspace and run variables">
            priority
          </span>
        )}
      </Heading>
      {a.description && <p data-testid="varset-description">{a.description}</p>}
      <VariablesTable vars={vars} loading={false} empty="No variables in this set." />
    </div>
  );
}

/**
 * The variable sets of `path` (a workspace's or a project's `/varsets`), ten at a time, each with
 * its variables (`include=vars`, sensitive values null). A 404 (the caller may not read the
 * variables there) says so instead of failing the page.
 */
export function VarsetList({
  path,
  hiddenNote,
  level = 'h3',
}: {
  path: string;
  hiddenNote: string;
  /** The heading of each set (h4 under another h3). */
  level?: 'h3' | 'h4';
}) {
  const [page, setPage] = useState(1);
  const list = useApi<Collection<VarsetAttributes>>(
    `${path}${query({ include: 'vars', 'page[number]': page, 'page[size]': 10 })}`,
  );
  if (list.status === 404)
    return (
      <p class="muted" data-testid="varsets-hidden">
        {hiddenNote}
      </p>
    );
  return (
    <div data-testid="varsets" aria-busy={list.loading}>
      <ErrorMessage message={list.error} />
      {!list.data && list.loading && <div class="varset placeholder" aria-hidden="true" />}
      {list.data?.data.map((set) => (
        <VarsetItem key={set.id} set={set} included={list.data?.included} level={level} />
      ))}
      {list.data?.data.length === 0 && (
        <p class="muted" data-testid="varsets-empty">
          No variable set applies here.
        </p>
      )}
      <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
    </div>
  );
}

/**
 * The workspace's variables and the variable sets that apply to it (read-only). A caller who may
 * not read them gets a 404 from the API: the card says so, and the rest of the page stands.
 */
export function WorkspaceVariablesCard({ workspaceId }: { workspaceId: string }) {
  const base = `/workspaces/${encodeURIComponent(workspaceId)}`;
  const vars = useApi<Collection<VariableAttributes>>(`${base}/vars`);
  const hidden = vars.status === 404;
  return (
    <Section title="Variables" id="variables">
      {hidden ? (
        <p class="muted" data-testid="variables-hidden">
          The variables of this workspace are not visible to you.
        </p>
      ) : (
        <>
          <ErrorMessage message={vars.error} />
          <VariablesTable vars={vars.data?.data} loading={vars.loading} empty="No workspace variables." />
          <h3>Variable sets</h3>
          <VarsetList
            path={`${base}/varsets`}
            hiddenNote="The variable sets of this workspace are not visible to you."
            level="h4"
          />
        </>
      )}
    </Section>
  );
}
