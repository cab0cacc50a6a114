import { DataTable, ErrorMessage, Section } from '../../components/common.js';
import type { Collection, Resource, WorkspaceAttributes } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';

interface OutputAttributes {
  name: string;
  sensitive: boolean;
  type: string;
  /** Null when sensitive: this list never answers a sensitive value. */
  value: unknown;
}

/** An output's value as text: a string as it is, anything else as JSON. */
export function outputText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * The outputs of the workspace's current state (`current-state-version-outputs`, whose sensitive
 * values are null: only the word "sensitive" shows). Read again when the current state changes.
 * A caller who may not read them gets a 404: the card says so.
 */
export function OutputsCard({ ws, current }: { ws: Resource<WorkspaceAttributes>; current?: string }) {
  const list = useApi<Collection<OutputAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/current-state-version-outputs`,
    current,
  );
  return (
    <Section title="Outputs" id="outputs">
      {list.status === 404 ? (
        <p class="muted" data-testid="outputs-hidden">
          The outputs of this workspace are not visible to you.
        </p>
      ) : (
        <>
          <ErrorMessage message={list.error} />
          <DataTable
            headings={['Name', 'Type', 'Value']}
            loading={list.loading}
            skeleton={!list.data && list.loading}
            skeletonRows={2}
          >
            {list.data?.data.map((o) => (
              <tr key={o.id} data-testid="output-row" data-name={o.attributes.name}>
                <td>
                  <code data-testid="output-name">{o.attributes.name}</code>
                </td>
                <td data-testid="output-type">{o.attributes.type}</td>
                <td>
                  {o.attributes.sensitive ? (
                    <span class="badge masked" data-testid="output-sensitive">
                      sensitive
                    </span>
                  ) : (
                    <code class="var-value" data-testid="output-value">
                      {outputText(o.attributes.value)}
                    </code>
                  )}
                </td>
              </tr>
            ))}
            {list.data?.data.length === 0 && (
              <tr>
                <td colSpan={3} class="muted" data-testid="outputs-empty">
                  {current ? 'The current state has no outputs.' : 'No state yet.'}
                </td>
              </tr>
            )}
          </DataTable>
        </>
      )}
    </Section>
  );
}
