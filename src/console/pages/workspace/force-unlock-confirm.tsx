import { related, type Resource, type WorkspaceAttributes } from '../../jsonapi.js';
import { href, orgPath } from '../../router.js';

/**
 * The force-unlock confirmation, in the page. When a run holds the lock it says what becomes of
 * that run: the server ends it (discarded, or canceled), so it can never apply; a run that is applying
 * keeps its lock (the server refuses, 409: the error shows).
 */
export function ForceUnlockConfirm({
  org,
  ws,
  busy,
  onConfirm,
  onCancel,
}: {
  org: string;
  ws: Resource<WorkspaceAttributes>;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const holder = related(ws, 'locked-by');
  const name = ws.attributes.name;
  return (
    <div class="confirm" role="group" aria-label="confirm force unlock">
      {holder?.type === 'runs' ? (
        <p data-testid="force-unlock-run-warning">
          Run{' '}
          <a href={href(orgPath(org, 'workspaces', name), { run: holder.id })}>
            <code>{holder.id}</code>
          </a>{' '}
          holds this lock. Force-unlocking {name} ends that run: it is discarded (or canceled) and can no longer apply.
          Start a new run to apply its changes. A run that is applying keeps its lock: cancel it first.
        </p>
      ) : (
        <p>Force-unlock {name}? Its holder may still be writing state.</p>
      )}
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm} data-testid="confirm" autoFocus>
          Force unlock now
        </button>
        <button type="button" onClick={onCancel} data-testid="cancel">
          Cancel
        </button>
      </div>
    </div>
  );
}
