import { query } from '../../api.js';
import { ErrorMessage } from '../../components/common.js';
import { mayReadAuditTrail } from '../../components/layout.js';
import {
  findIncluded,
  related,
  type Document,
  type OrganizationAttributes,
  type ProjectAttributes,
  type Resource,
  type WorkspaceAttributes,
} from '../../jsonapi.js';
import { href, orgPath } from '../../router.js';
import { useApi } from '../../use-api.js';
import { AttributesCard } from './attributes-card.js';
import { WorkspaceAuditCard } from './audit-card.js';
import { DeleteWorkspaceCard } from './delete-card.js';
import { DriftBadge } from './drift-badge.js';
import { LockCard } from './lock-card.js';
import { OutputsCard } from './outputs-card.js';
import { RemoteStateCard } from './remote-state-card.js';
import { RunMetricsCard } from './run-metrics-card.js';
import { RunTriggersCard } from './run-triggers-card.js';
import { ExecutedRunsCard } from './runs/executed-runs-card.js';
import { SshKeyCard } from './ssh-key-card.js';
import { StateVersionsCard } from './state-versions-card.js';
import { TagsCard } from './tags-card.js';
import { WorkspaceVariablesCard } from './variables/variables-card.js';

/**
 * One workspace: its lock, attributes, tags, consumers, SSH key, variables, runs (the one `?run=`
 * names shown), outputs, state, audit trail (for those who may read it) and its deletion.
 */
export function WorkspacePage({ org, name, query: q }: { org: string; name: string; query: URLSearchParams }) {
  const doc = useApi<Document<WorkspaceAttributes>>(
    `/organizations/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(name)}${query({
      include: 'locked_by,effective_tag_bindings,project',
    })}`,
  );
  // The organization says whether the caller may read its audit trail (owners): others would
  // get a 404 there, so the card is not shown to them at all.
  const orgDoc = useApi<Document<OrganizationAttributes>>(`/organizations/${encodeURIComponent(org)}`);
  const ws = doc.data?.data;
  const project = ws
    ? (findIncluded(doc.data?.included, related(ws, 'project')) as Resource<ProjectAttributes> | undefined)
    : undefined;
  const currentState = ws ? related(ws, 'current-state-version')?.id : undefined;
  return (
    <>
      <p class="crumbs">
        <a href={`#${orgPath(org, 'workspaces')}`}>Workspaces</a>
        {project && (
          <>
            {' · '}
            <a href={href(orgPath(org, 'workspaces'), { project: project.id })} data-testid="workspace-project">
              {project.attributes.name}
            </a>
          </>
        )}
      </p>
      <h1 data-testid="workspace-name">{name}</h1>
      {ws && <DriftBadge ws={ws} />}
      {ws?.attributes.description && <p data-testid="workspace-description">{ws.attributes.description}</p>}
      <ErrorMessage message={doc.error} />
      {!ws && doc.loading && <div class="card placeholder" aria-busy="true" />}
      {ws && (
        <>
          <div class="grid">
            <LockCard org={org} ws={ws} included={doc.data?.included} reload={doc.reload} />
            <AttributesCard org={org} ws={ws} project={project} />
            <TagsCard ws={ws} included={doc.data?.included} />
            <RemoteStateCard ws={ws} />
            <RunTriggersCard org={org} ws={ws} />
            <SshKeyCard ws={ws} />
          </div>
          <WorkspaceVariablesCard ws={ws} />
          <ExecutedRunsCard org={org} ws={ws} runFromUrl={q.get('run')} onRunsChanged={doc.reload} />
          <OutputsCard ws={ws} current={currentState} />
          <RunMetricsCard ws={ws} />
          <StateVersionsCard ws={ws} current={currentState} onChanged={doc.reload} />
          {mayReadAuditTrail(orgDoc.data) && <WorkspaceAuditCard org={org} ws={ws} />}
          <DeleteWorkspaceCard org={org} ws={ws} />
        </>
      )}
    </>
  );
}
