import { related, type Resource, type WorkspaceAttributes } from '../../jsonapi.js';
import { href, orgPath } from '../../router.js';

/**
 * The force-unlock confirmation, in the page. When a run holds the lock it says what becomes of
 * that run: the server ends it (discarded, or errored if it is applying), so it can never apply.
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
          holds this lock. Force-unlocking {name} ends that run: it is discarded (errored if it is already applying) and
          can no longer apply. Start a new run to apply its changes.
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
