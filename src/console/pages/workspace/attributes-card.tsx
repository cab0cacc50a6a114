import { Age, Section } from '../../components/common.js';
import { related, type ProjectAttributes, type Resource, type WorkspaceAttributes } from '../../jsonapi.js';
import { orgPath } from '../../router.js';

/** The workspace's id, project, execution settings, resource count and times. */
export function AttributesCard({
  org,
  ws,
  project,
}: {
  org: string;
  ws: Resource<WorkspaceAttributes>;
  project?: Resource<ProjectAttributes>;
}) {
  const a = ws.attributes;
  const projectRef = related(ws, 'project');
  return (
    <Section title="Attributes" id="attributes">
      <dl class="attrs">
        <dt>ID</dt>
        <dd>
          <code data-testid="workspace-id">{ws.id}</code>
        </dd>
        <dt>Project</dt>
        <dd>
          {projectRef && (
            <a href={`#${orgPath(org, 'projects', projectRef.id)}`} data-testid="workspace-project-page">
              {project?.attributes.name ?? projectRef.id}
            </a>
          )}
        </dd>
        <dt>Execution mode</dt>
        <dd>{a['execution-mode']}</dd>
        <dt>Terraform version</dt>
        <dd>{a['terraform-version']}</dd>
        <dt>Working directory</dt>
        <dd>{a['working-directory'] || <span class="muted">(root)</span>}</dd>
        <dt>Auto apply</dt>
        <dd>{a['auto-apply'] ? 'yes' : 'no'}</dd>
        <dt>Resources</dt>
        <dd data-testid="workspace-resources">{a['resource-count']}</dd>
        <dt>Created</dt>
        <dd>
          <Age at={a['created-at']} />
        </dd>
        <dt>Latest change</dt>
        <dd>
          <Age at={a['latest-change-at']} />
        </dd>
      </dl>
    </Section>
  );
}
