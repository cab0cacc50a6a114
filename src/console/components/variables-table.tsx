import type { ComponentChildren } from 'preact';
import type { Resource, VariableAttributes } from '../jsonapi.js';
import { DataTable } from './common.js';

type Variable = Resource<VariableAttributes>;

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

/**
 * Variables as a table: key, value (masked when sensitive), category, HCL, description, and the
 * row's `actions` when given (a last column).
 */
export function VariablesTable({
  vars,
  loading,
  empty,
  actions,
}: {
  vars: Variable[] | undefined;
  loading: boolean;
  empty: string;
  actions?: (v: Variable) => ComponentChildren;
}) {
  const headings = ['Key', 'Value', 'Category', 'HCL', 'Description', ...(actions ? [''] : [])];
  return (
    <DataTable headings={headings} loading={loading} skeleton={!vars && loading} skeletonRows={2}>
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
          {actions && <td class="row-actions">{actions(v)}</td>}
        </tr>
      ))}
      {vars?.length === 0 && (
        <tr>
          <td colSpan={headings.length} class="muted" data-testid="empty">
            {empty}
          </td>
        </tr>
      )}
    </DataTable>
  );
}
