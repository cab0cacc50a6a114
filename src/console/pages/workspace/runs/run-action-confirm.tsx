import { useState } from 'preact/hooks';
import { api } from '../../../api.js';
import { ErrorMessage } from '../../../components/common.js';

export type RunAction = 'apply' | 'discard' | 'cancel';

const WORDS: Record<RunAction, { question: string; button: string }> = {
  apply: { question: 'Apply this plan? Terraform makes the changes it planned.', button: 'Confirm apply' },
  discard: { question: 'Discard this plan? It will never be applied.', button: 'Discard run' },
  cancel: { question: 'Cancel this run? Terraform is interrupted where it is.', button: 'Cancel run' },
};

/**
 * The confirmation of a run action, in the page, with an optional comment: sent as the action's
 * `comment`, which berth stores as a comment of the run (HCP's "Confirm & apply" box).
 */
export function RunActionConfirm({
  runId,
  action,
  onDone,
  onClose,
}: {
  runId: string;
  action: RunAction;
  onDone: () => void;
  onClose: () => void;
}) {
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const words = WORDS[action];
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(`/runs/${encodeURIComponent(runId)}/actions/${action}`, {
        method: 'POST',
        body: comment.trim() === '' ? {} : { comment },
      });
      onDone();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <div
      class="confirm"
      role="group"
      aria-label={`confirm ${action}`}
      data-testid="run-action-confirm"
      data-action={action}
    >
      <p>{words.question}</p>
      <label for="run-comment">Comment (optional)</label>
      <textarea
        id="run-comment"
        rows={2}
        value={comment}
        onInput={(e) => setComment(e.currentTarget.value)}
        data-testid="run-comment"
      />
      <div class="actions">
        <button
          type="button"
          class={action === 'apply' ? 'primary' : 'danger'}
          disabled={busy}
          onClick={() => void submit()}
          data-testid="run-confirm"
        >
          {words.button}
        </button>
        <button type="button" disabled={busy} onClick={onClose} data-testid="run-confirm-cancel">
          Back
        </button>
      </div>
      <ErrorMessage message={error} />
    </div>
  );
}
