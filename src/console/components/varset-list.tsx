import { useState } from 'preact/hooks';
import { query } from '../api.js';
import {
  findIncluded,
  relatedMany,
  type Collection,
  type Resource,
  type VariableAttributes,
  type VarsetAttributes,
} from '../jsonapi.js';
import { useApi } from '../use-api.js';
import { ErrorMessage, LocalPager } from './common.js';
import { VariablesTable } from './variables-table.js';

type Variable = Resource<VariableAttributes>;
type Varset = Resource<VarsetAttributes>;

/** One set: its name, whether it is global and has priority, its description and variables. */
function VarsetItem({ set, included, level }: { set: Varset; included?: Resource[]; level: 'h3' | 'h4' }) {
  const Heading = level;
  const a = set.attributes;
  const vars = relatedMany(set, 'vars')
    .map((ref) => findIncluded(included, ref) as Variable | undefined)
    .filter((v): v is Variable => v !== undefined);
  return (
    <div class="varset" data-testid="varset" data-name={a.name}>
      <Heading>
        <span data-testid="varset-name">{a.name}</span>{' '}
        {a.global && (
          <span class="badge" data-testid="varset-global" title="applies to every workspace of the organization">
            global
          </span>
        )}{' '}
        {a.priority && (
          <span class="badge locked" data-testid="varset-priority" title="wins over workspace and run variables">
            priority
          </span>
        )}
      </Heading>
      {a.description && <p data-testid="varset-description">{a.description}</p>}
      <VariablesTable vars={vars} loading={false} empty="No variables in this set." />
    </div>
  );
}

/**
 * The variable sets of `path` (a workspace's or a project's `/varsets`), ten at a time, each with
 * its variables (`include=vars`, sensitive values null). A 404 (the caller may not read the
 * variables there) says so instead of failing the page.
 */
export function VarsetList({
  path,
  hiddenNote,
  level = 'h3',
}: {
  path: string;
  hiddenNote: string;
  /** The heading of each set (h4 under another h3). */
  level?: 'h3' | 'h4';
}) {
  const [page, setPage] = useState(1);
  const list = useApi<Collection<VarsetAttributes>>(
    `${path}${query({ include: 'vars', 'page[number]': page, 'page[size]': 10 })}`,
  );
  if (list.status === 404)
    return (
      <p class="muted" data-testid="varsets-hidden">
        {hiddenNote}
      </p>
    );
  return (
    <div data-testid="varsets" aria-busy={list.loading}>
      <ErrorMessage message={list.error} />
      {!list.data && list.loading && <div class="varset placeholder" aria-hidden="true" />}
      {list.data?.data.map((set) => (
        <VarsetItem key={set.id} set={set} included={list.data?.included} level={level} />
      ))}
      {list.data?.data.length === 0 && (
        <p class="muted" data-testid="varsets-empty">
          No variable set applies here.
        </p>
      )}
      <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
    </div>
  );
}
