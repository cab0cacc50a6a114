import { query } from '../api.js';
import { ErrorMessage, Section, TagBinding } from '../components/common.js';
import { VarsetList } from '../components/varset-list.js';
import {
  findIncluded,
  relatedMany,
  type Document,
  type ProjectAttributes,
  type Resource,
  type TagBindingAttributes,
} from '../jsonapi.js';
import { href, orgPath } from '../router.js';
import { useApi } from '../use-api.js';

/** One project: its description, workspaces, key-value tags and the variable sets applied to it. */
export function ProjectPage({ org, id }: { org: string; id: string }) {
  const doc = useApi<Document<ProjectAttributes>>(
    `/projects/${encodeURIComponent(id)}${query({ include: 'effective_tag_bindings' })}`,
  );
  const p = doc.data?.data;
  return (
    <>
      <p class="crumbs">
        <a href={`#${orgPath(org, 'projects')}`}>Projects</a>
      </p>
      <h1 data-testid="project-name">{p?.attributes.name ?? ''}</h1>
      {p?.attributes.description && <p data-testid="project-description">{p.attributes.description}</p>}
      <ErrorMessage message={doc.error} />
      {!p && doc.loading && <div class="card placeholder" aria-busy="true" />}
      {p && (
        <>
          <Section title="Project" id="project">
            <dl class="attrs">
              <dt>ID</dt>
              <dd>
                <code>{p.id}</code>
              </dd>
              <dt>Workspaces</dt>
              <dd>
                <a href={href(orgPath(org, 'workspaces'), { project: p.id })} data-testid="project-workspaces">
                  {p.attributes['workspace-count']}
                </a>
              </dd>
              <dt>Tags</dt>
              <dd>
                {relatedMany(p, 'effective-tag-bindings').map((ref) => {
                  const b = findIncluded(doc.data?.included, ref) as Resource<TagBindingAttributes> | undefined;
                  return b ? <TagBinding key={ref.id} k={b.attributes.key} value={b.attributes.value} /> : null;
                })}
              </dd>
            </dl>
          </Section>
          <Section title="Variable sets" id="project-varsets">
            <p class="muted">The sets applied to this project, and the global ones (read-only).</p>
            <VarsetList
              path={`/projects/${encodeURIComponent(p.id)}/varsets`}
              hiddenNote="The variable sets of this project are not visible to you."
            />
          </Section>
        </>
      )}
    </>
  );
}
