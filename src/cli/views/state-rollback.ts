import type { Resource } from '../../client/jsonapi.js';

/** An output whose value a rollback changes: added, removed, or changed (value or sensitivity). */
export interface OutputChange {
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** The value now (current state) and after the rollback, as shown: JSON, sensitive ones masked. */
  before: string | null;
  after: string | null;
}

const MASK = '(sensitive)';

function shown(o: Resource | undefined): string | null {
  if (!o) return null;
  return o.attributes.sensitive ? MASK : JSON.stringify(o.attributes.value);
}

const same = (a: Resource, b: Resource) =>
  a.attributes.sensitive === b.attributes.sensitive &&
  JSON.stringify(a.attributes.value) === JSON.stringify(b.attributes.value);

/**
 * The outputs that differ between the current state's (`current`, with values: a version's outputs)
 * and the version rolled back to (`target`): in the target's order, then those it loses. A
 * sensitive value is never shown, only that it changes.
 */
export function outputChanges(current: Resource[], target: Resource[]): OutputChange[] {
  const now = new Map(current.map((o) => [String(o.attributes.name), o]));
  const then = new Map(target.map((o) => [String(o.attributes.name), o]));
  const changes: OutputChange[] = [];
  for (const [name, o] of then) {
    const before = now.get(name);
    if (!before) changes.push({ name, change: 'added', before: null, after: shown(o) });
    else if (!same(before, o)) changes.push({ name, change: 'changed', before: shown(before), after: shown(o) });
  }
  for (const [name, o] of now)
    if (!then.has(name)) changes.push({ name, change: 'removed', before: shown(o), after: null });
  return changes;
}

const SIGN = { added: '+', removed: '-', changed: '~' } as const;

/** The preview's lines of output changes (`  ~ url: "a" → "b"`), or a line saying there are none. */
export function outputChangeLines(changes: OutputChange[]): string[] {
  if (changes.length === 0) return ['No output changes.'];
  return [
    'Outputs that change:',
    ...changes.map((c) => {
      const value =
        c.change === 'added' ? c.after : c.change === 'removed' ? `${c.before} (removed)` : `${c.before} → ${c.after}`;
      return `  ${SIGN[c.change]} ${c.name}: ${value}`;
    }),
  ];
}
