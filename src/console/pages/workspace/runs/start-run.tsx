import { useState } from 'preact/hooks';
import { api } from '../../../api.js';
import { ErrorMessage } from '../../../components/common.js';
import { related, type Document, type Resource, type WorkspaceAttributes } from '../../../jsonapi.js';

type Kind = 'plan-and-apply' | 'plan-only' | 'destroy';

const KINDS: { kind: Kind; label: string; permission: 'can-queue-apply' | 'can-queue-run' | 'can-queue-destroy' }[] = [
  { kind: 'plan-and-apply', label: 'Plan and apply', permission: 'can-queue-apply' },
  { kind: 'plan-only', label: 'Plan only', permission: 'can-queue-run' },
  { kind: 'destroy', label: 'Destroy', permission: 'can-queue-destroy' },
];

/** The attributes of `POST /runs` for a kind of run and its message. */
export function startRunBody(workspaceId: string, configurationVersionId: string, kind: Kind, message: string) {
  return {
    data: {
      type: 'runs',
      attributes: {
        ...(message.trim() === '' ? {} : { message }),
        'is-destroy': kind === 'destroy',
        'plan-only': kind === 'plan-only',
      },
      relationships: {
        workspace: { data: { type: 'workspaces', id: workspaceId } },
        'configuration-version': { data: { type: 'configuration-versions', id: configurationVersionId } },
      },
    },
  };
}

/**
 * "Start run": a plan only, a plan and apply, or a destroy of the workspace's current configuration
 * version, with a message. Each kind is offered only when the workspace's permissions allow it (a
 * destroy also needs `allow-destroy-plan`); nothing is offered before a configuration was uploaded.
 */
export function StartRun({ ws, onStarted }: { ws: Resource<WorkspaceAttributes>; onStarted: (runId: string) => void }) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<Kind>('plan-and-apply');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const a = ws.attributes;
  const p = a.permissions;
  const kinds = KINDS.filter((k) => p[k.permission] && (k.kind !== 'destroy' || a['allow-destroy-plan'] !== false));
  const cv = related(ws, 'current-configuration-version');
  if (kinds.length === 0) return null;
  if (a['execution-mode'] === 'local')
    return (
      <p class="muted" data-testid="start-run-unavailable">
        Runs of this workspace execute on the machine that starts them (execution mode local).
      </p>
    );
  if (!cv)
    return (
      <p class="muted" data-testid="start-run-unavailable">
        No configuration uploaded yet: start the first run with <code>terraform plan</code> or{' '}
        <code>berth run start</code>.
      </p>
    );
  const chosen = kinds.some((k) => k.kind === kind) ? kind : kinds[0].kind;
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const doc = await api<Document>('/runs', {
        method: 'POST',
        body: startRunBody(ws.id, cv.id, chosen, message),
      });
      setOpen(false);
      setMessage('');
      onStarted(doc.data.id);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (!open)
    return (
      <p>
        <button type="button" class="primary" onClick={() => setOpen(true)} data-testid="start-run">
          Start run
        </button>
      </p>
    );
  return (
    <form class="start-run" onSubmit={(e) => void submit(e)} data-testid="start-run-form">
      <div>
        <label for="start-run-kind">Kind of run</label>
        <select
          id="start-run-kind"
          value={chosen}
          onChange={(e) => setKind(e.currentTarget.value as Kind)}
          data-testid="start-run-kind"
        >
          {kinds.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      <div class="wide">
        <label for="start-run-message">Message (optional)</label>
        <input
          id="start-run-message"
          value={message}
          onInput={(e) => setMessage(e.currentTarget.value)}
          autoComplete="off"
          data-testid="start-run-message"
        />
      </div>
      {chosen === 'destroy' && (
        <p class="warning" data-testid="start-run-destroy-warning">
          A destroy run plans to destroy every resource this workspace manages.
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy} data-testid="start-run-submit">
          Start {KINDS.find((k) => k.kind === chosen)!.label.toLowerCase()}
        </button>
        <button type="button" disabled={busy} onClick={() => setOpen(false)} data-testid="start-run-cancel">
          Cancel
        </button>
      </div>
      <ErrorMessage message={error} />
    </form>
  );
}
