import { useState } from 'preact/hooks';
import { ErrorMessage, Section } from '../../../components/common.js';
import { VariablesTable } from '../../../components/variables-table.js';
import { VarsetList } from '../../../components/varset-list.js';
import type { Collection, Resource, VariableAttributes, WorkspaceAttributes } from '../../../jsonapi.js';
import { useApi } from '../../../use-api.js';
import { VariableForm } from './variable-form.js';
import { VariableRowActions } from './variable-row-actions.js';

/**
 * The workspace's variables and the variable sets that apply to it. Those who may change the
 * variables (`permissions.can-update-variable`) add, edit and delete them here. A caller who may
 * not read them gets a 404 from the API: the card says so, and the rest of the page stands.
 */
export function WorkspaceVariablesCard({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const base = `/workspaces/${encodeURIComponent(ws.id)}`;
  const vars = useApi<Collection<VariableAttributes>>(`${base}/vars`);
  // null: no form; 'new': adding; else the variable edited.
  const [form, setForm] = useState<Resource<VariableAttributes> | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mayEdit = ws.attributes.permissions['can-update-variable'] === true;
  const saved = () => {
    setForm(null);
    setError(null);
    vars.reload();
  };
  if (vars.status === 404)
    return (
      <Section title="Variables" id="variables">
        <p class="muted" data-testid="variables-hidden">
          The variables of this workspace are not visible to you.
        </p>
      </Section>
    );
  return (
    <Section title="Variables" id="variables">
      <ErrorMessage message={vars.error ?? error} />
      {mayEdit && form === null && (
        <p>
          <button type="button" onClick={() => setForm('new')} data-testid="variable-add">
            Add variable
          </button>
        </p>
      )}
      {form !== null && (
        <VariableForm
          key={form === 'new' ? 'new' : form.id}
          workspaceId={ws.id}
          editing={form === 'new' ? null : form}
          onSaved={saved}
          onClose={() => setForm(null)}
        />
      )}
      <VariablesTable
        vars={vars.data?.data}
        loading={vars.loading}
        empty="No workspace variables."
        actions={
          mayEdit
            ? (v) => (
                <VariableRowActions
                  workspaceId={ws.id}
                  v={v}
                  onEdit={() => setForm(v)}
                  onDeleted={saved}
                  onError={setError}
                />
              )
            : undefined
        }
      />
      <h3>Variable sets</h3>
      <VarsetList
        path={`${base}/varsets`}
        hiddenNote="The variable sets of this workspace are not visible to you."
        level="h4"
      />
    </Section>
  );
}
