import { Section, TagBinding } from '../../components/common.js';
import { findIncluded, relatedMany, type Resource, type WorkspaceAttributes } from '../../jsonapi.js';

/** The workspace's own and inherited key-value tags, and its flat tags. */
export function TagsCard({ ws, included }: { ws: Resource<WorkspaceAttributes>; included?: Resource[] }) {
  const bindings = relatedMany(ws, 'effective-tag-bindings')
    .map((ref) => findIncluded(included, ref))
    .filter((b): b is Resource => b !== undefined) as Resource<{ key: string; value: string }>[];
  return (
    <Section title="Tags" id="tags">
      <h3>Key-value tags</h3>
      <p data-testid="tag-bindings">
        {bindings.length === 0 && <span class="muted">none</span>}
        {bindings.map((b) => (
          <TagBinding
            key={b.id}
            k={b.attributes.key}
            value={b.attributes.value}
            inherited={b.links?.['inherited-from'] !== undefined}
          />
        ))}
      </p>
      <h3>Flat tags</h3>
      <p data-testid="flat-tags">
        {ws.attributes['tag-names'].length === 0 && <span class="muted">none</span>}
        {ws.attributes['tag-names'].map((t) => (
          <span key={t} class="tag" data-testid="flat-tag">
            {t}
          </span>
        ))}
      </p>
    </Section>
  );
}
