import { useState } from 'preact/hooks';
import { api } from '../../../api.js';
import { ErrorMessage } from '../../../components/common.js';
import type { Resource, VariableAttributes } from '../../../jsonapi.js';
import { fieldsOf, variableBody, type VariableFields } from './variable-body.js';

/**
 * Adds a workspace variable, or edits `editing`. A sensitive variable is write-only: its value is
 * never shown, and editing it only replaces its value (the other fields are not offered).
 */
export function VariableForm({
  workspaceId,
  editing,
  onSaved,
  onClose,
}: {
  workspaceId: string;
  editing: Resource<VariableAttributes> | null;
  onSaved: () => void;
  onClose: () => void;
}) {
  const [f, setF] = useState<VariableFields>(() => fieldsOf(editing));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof VariableFields>(k: K, v: VariableFields[K]) => setF((old) => ({ ...old, [k]: v }));
  const writeOnly = editing?.attributes.sensitive === true;
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const base = `/workspaces/${encodeURIComponent(workspaceId)}/vars`;
    try {
      await api(editing ? `${base}/${encodeURIComponent(editing.id)}` : base, {
        method: editing ? 'PATCH' : 'POST',
        body: variableBody(editing, f),
      });
      onSaved();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <form
      class="variable-form"
      onSubmit={(e) => void submit(e)}
      data-testid="variable-form"
      data-key={editing?.attributes.key}
    >
      <h3>{editing ? `Edit ${editing.attributes.key}` : 'Add a variable'}</h3>
      {writeOnly && (
        <p class="muted" data-testid="variable-form-write-only">
          {editing.attributes.key} is sensitive: its value is write-only and is never shown. Saving replaces it.
        </p>
      )}
      <div class="filters">
        {!writeOnly && (
          <div>
            <label for="variable-form-key">Key</label>
            <input
              id="variable-form-key"
              value={f.key}
              required
              autoComplete="off"
              spellcheck={false}
              onInput={(e) => set('key', e.currentTarget.value)}
              data-testid="variable-form-key"
            />
          </div>
        )}
        <div class="wide">
          <label for="variable-form-value">{writeOnly ? 'New value' : 'Value'}</label>
          <textarea
            id="variable-form-value"
            rows={2}
            value={f.value}
            autoComplete="off"
            spellcheck={false}
            onInput={(e) => set('value', e.currentTarget.value)}
            data-testid="variable-form-value"
          />
        </div>
        {!writeOnly && (
          <>
            <div>
              <label for="variable-form-category">Category</label>
              <select
                id="variable-form-category"
                value={f.category}
                onChange={(e) => set('category', e.currentTarget.value as VariableFields['category'])}
                data-testid="variable-form-category"
              >
                <option value="terraform">terraform</option>
                <option value="env">env</option>
              </select>
            </div>
            <div class="wide">
              <label for="variable-form-description">Description (optional)</label>
              <input
                id="variable-form-description"
                value={f.description}
                autoComplete="off"
                onInput={(e) => set('description', e.currentTarget.value)}
                data-testid="variable-form-description"
              />
            </div>
            <label class="check">
              <input
                type="checkbox"
                checked={f.hcl}
                onChange={(e) => set('hcl', e.currentTarget.checked)}
                data-testid="variable-form-hcl"
              />{' '}
              HCL
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={f.sensitive}
                onChange={(e) => set('sensitive', e.currentTarget.checked)}
                data-testid="variable-form-sensitive"
              />{' '}
              Sensitive (write-only from now on)
            </label>
          </>
        )}
      </div>
      <div class="actions">
        <button type="submit" disabled={busy} data-testid="variable-form-save">
          {editing ? 'Save' : 'Add variable'}
        </button>
        <button type="button" disabled={busy} onClick={onClose} data-testid="variable-form-cancel">
          Cancel
        </button>
      </div>
      <ErrorMessage message={error} />
    </form>
  );
}
