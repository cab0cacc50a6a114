import { useState } from 'preact/hooks';
import { api } from '../../../api.js';
import type { Resource, VariableAttributes } from '../../../jsonapi.js';

/** A variable row's Edit and Delete (Delete asks again in the row). */
export function VariableRowActions({
  workspaceId,
  v,
  onEdit,
  onDeleted,
  onError,
}: {
  workspaceId: string;
  v: Resource<VariableAttributes>;
  onEdit: () => void;
  onDeleted: () => void;
  onError: (message: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await api(`/workspaces/${encodeURIComponent(workspaceId)}/vars/${encodeURIComponent(v.id)}`, {
        method: 'DELETE',
      });
      onDeleted();
    } catch (err) {
      onError((err as Error).message);
      setBusy(false);
      setConfirming(false);
    }
  };
  if (confirming)
    return (
      <span class="run-actions" role="group" aria-label={`confirm deleting ${v.attributes.key}`}>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => void remove()}
          data-testid="variable-delete-confirm"
        >
          Delete {v.attributes.key}
        </button>
        <button type="button" disabled={busy} onClick={() => setConfirming(false)} data-testid="variable-delete-cancel">
          Keep
        </button>
      </span>
    );
  return (
    <span class="run-actions">
      <button type="button" onClick={onEdit} data-testid="variable-edit">
        Edit
      </button>
      <button type="button" class="danger" onClick={() => setConfirming(true)} data-testid="variable-delete">
        Delete
      </button>
    </span>
  );
}
