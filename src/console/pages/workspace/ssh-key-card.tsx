import { ErrorMessage, Section } from '../../components/common.js';
import {
  related,
  type Document,
  type Resource,
  type SshKeyAttributes,
  type WorkspaceAttributes,
} from '../../jsonapi.js';
import { useApi } from '../../use-api.js';

/** The SSH key assigned to the workspace, if any. */
export function SshKeyCard({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const ref = related(ws, 'ssh-key');
  const key = useApi<Document<SshKeyAttributes>>(ref ? `/ssh-keys/${encodeURIComponent(ref.id)}` : null);
  return (
    <Section title="SSH key" id="ssh-key">
      {!ref && <p class="muted">No SSH key assigned.</p>}
      {ref && (
        <p data-testid="ssh-key-name">
          {key.data?.data.attributes.name ?? ''} <code class="muted">{ref.id}</code>
        </p>
      )}
      <ErrorMessage message={key.error} />
    </Section>
  );
}
