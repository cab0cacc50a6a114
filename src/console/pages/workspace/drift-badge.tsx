import type { Document, Resource, WorkspaceAttributes } from '../../jsonapi.js';
import { related } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';

/** What the workspace's current health assessment found (hosted edition): drifted, no drift, or failed. */
export function DriftBadge({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const ref = related(ws, 'current-assessment-result');
  const result = useApi<Document<{ drifted: boolean | null; succeeded: boolean | null; 'created-at': string }>>(
    ref ? `/assessment-results/${encodeURIComponent(ref.id)}` : null,
  );
  const a = result.data?.data.attributes;
  if (!a) return null;
  const [label, kind] = !a.succeeded
    ? ['assessment failed', 'locked']
    : a.drifted
      ? ['drifted', 'locked']
      : ['no drift', 'unlocked'];
  return (
    <p>
      <span class={`badge ${kind}`} data-testid="drift" title={`Health assessment of ${a['created-at']}`}>
        {label}
      </span>
    </p>
  );
}
