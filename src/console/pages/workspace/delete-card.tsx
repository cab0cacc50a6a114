import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { ErrorMessage, Section } from '../../components/common.js';
import type { Resource, WorkspaceAttributes } from '../../jsonapi.js';
import { navigate, orgPath } from '../../router.js';

/**
 * Deleting the workspace, as `berth workspace delete` does: a safe delete (it manages no resources
 * and is not locked) after a confirmation; otherwise a force delete, which forgets the resources it
 * manages, only after the workspace's name is typed back. Shown to those who may do either.
 */
export function DeleteWorkspaceCard({ org, ws }: { org: string; ws: Resource<WorkspaceAttributes> }) {
  const a = ws.attributes;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const safe = a.actions?.['is-destroyable'] ?? (!a.locked && a['resource-count'] === 0);
  const mayForce = a.permissions['can-force-delete'] === true;
  if (!a.permissions['can-destroy'] && !mayForce) return null;
  const force = !safe;
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      const path = `/workspaces/${encodeURIComponent(ws.id)}`;
      if (force) await api(path, { method: 'DELETE' });
      else await api(`${path}/actions/safe-delete`, { method: 'POST' });
      navigate(`#${orgPath(org, 'workspaces')}`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  const what = [
    a['resource-count'] > 0 ? `manages ${a['resource-count']} resource${a['resource-count'] === 1 ? '' : 's'}` : '',
    a.locked ? 'is locked' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return (
    <Section title="Delete workspace" id="delete-workspace">
      {!open && (
        <button type="button" class="danger" onClick={() => setOpen(true)} data-testid="workspace-delete">
          Delete workspace
        </button>
      )}
      {open && (
        <div class="confirm" role="group" aria-label="confirm delete" data-testid="workspace-delete-confirm">
          {!force && <p>Delete {a.name}? It manages no resources; its state versions and runs go with it.</p>}
          {force && !mayForce && (
            <p data-testid="workspace-delete-refused">
              {a.name} {what}: destroy its resources (a destroy run) and unlock it first, or ask an owner to force
              delete it.
            </p>
          )}
          {force && mayForce && (
            <>
              <p data-testid="workspace-delete-force-warning">
                {a.name} {what}. Deleting it forgets its resources: they stay where they are, managed by nothing.
              </p>
              <label for="workspace-delete-name">Type the workspace's name, {a.name}, to confirm</label>
              <input
                id="workspace-delete-name"
                value={typed}
                onInput={(e) => setTyped(e.currentTarget.value)}
                autoComplete="off"
                spellcheck={false}
                data-testid="workspace-delete-name"
              />
            </>
          )}
          <div class="actions">
            {(!force || mayForce) && (
              <button
                type="button"
                class="danger"
                disabled={busy || (force && typed !== a.name)}
                onClick={() => void remove()}
                data-testid="workspace-delete-submit"
              >
                {force ? 'Force delete' : 'Delete'}
              </button>
            )}
            <button
              type="button"
              onClick={() => (setOpen(false), setTyped(''), setError(null))}
              data-testid="workspace-delete-cancel"
            >
              Cancel
            </button>
          </div>
        </div>
      )}
      <ErrorMessage message={error} />
    </Section>
  );
}
