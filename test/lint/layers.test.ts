import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * The layer rules of docs/architecture.md live in eslint.config.js. Each case lints a small file
 * placed in a layer (in memory: the path decides which rules apply, and nothing is written into
 * src/) and checks whether an import rule fires, so a change to the config cannot silently stop
 * one from working. Type information is not needed for import rules and is turned off: fast.
 */
const IMPORT_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

let eslint: ESLint;

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId !== null && IMPORT_RULES.has(m.ruleId)).map((m) => m.message);
}

type Kind = 'import' | 'import type' | 'export' | 'await import';

/** A file that uses module `from` in one of the ways a module can be imported. */
const CODE: Record<Kind, (from: string) => string> = {
  import: (from) => `import { x } from '${from}';\nexport const y = x;`,
  'import type': (from) => `import type { X } from '${from}';\nexport type Y = X;`,
  export: (from) => `export { x } from '${from}';`,
  'await import': (from) => `export const load = async () => (await import('${from}')).x;`,
};

/** [file, how, module]: an import that breaks its layer. */
const FORBIDDEN: [string, Kind, string][] = [
  // Files in an area's subfolder (src/domain/runs/, src/cli/workspaces/) obey their layer's rules.
  ['src/domain/runs/rule.ts', 'import', '../../store/schema.js'],
  ['src/domain/runs/rule.ts', 'import', 'node:fs'],
  ['src/cli/workspaces/thing.ts', 'import', '../../services/workspaces/workspaces-read.js'],
  ['src/cli/workspaces/thing.ts', 'await import', '../../services/workspaces/workspaces-read.js'],
  ['src/domain/rule.ts', 'import', 'node:fs'],
  ['src/domain/rule.ts', 'import', 'fs/promises'],
  ['src/domain/rule.ts', 'import', 'node:http'],
  ['src/domain/rule.ts', 'import', 'node:net'],
  ['src/domain/rule.ts', 'import', 'node:child_process'],
  ['src/domain/rule.ts', 'import', 'better-sqlite3'],
  ['src/domain/rule.ts', 'import', 'pg'],
  ['src/domain/rule.ts', 'import', 'kysely'],
  ['src/domain/rule.ts', 'import', 'hono'],
  ['src/domain/rule.ts', 'await import', 'node:fs'],
  ['src/domain/rule.ts', 'import', '../store/schema.js'],
  ['src/domain/rule.ts', 'import', '../services/context.js'],
  ['src/domain/rule.ts', 'import', '../api/app.js'],
  ['src/domain/rule.ts', 'import', '../cli/output/output.js'],
  ['src/domain/rule.ts', 'import', '../client/client.js'],
  ['src/domain/rule.ts', 'import', '../commands/whoami.js'],
  ['src/store/query.ts', 'import', '../services/context.js'],
  ['src/store/migrations/099_x.ts', 'import', '../../api/app.js'],
  ['src/store/query.ts', 'import', '../cli/output/output.js'],
  ['src/store/query.ts', 'import', '../client/client.js'],
  ['src/store/query.ts', 'import', '../commands/whoami.js'],
  ['src/services/thing.ts', 'import', 'hono'],
  ['src/services/thing.ts', 'import', '../api/errors.js'],
  ['src/services/thing.ts', 'import', '../cli/output/output.js'],
  ['src/services/thing.ts', 'import', '../client/client.js'],
  ['src/services/thing.ts', 'import', '../commands/whoami.js'],
  ['src/api/thing.ts', 'import', '../store/open.js'],
  ['src/api/routes/thing.ts', 'import', '../../store/memo-query.js'],
  ['src/api/thing.ts', 'export', '../store/open.js'],
  ['src/api/thing.ts', 'await import', '../store/open.js'],
  ['src/api/thing.ts', 'import', '../client/client.js'],
  ['src/api/thing.ts', 'import', '../cli/output/output.js'],
  ['src/api/thing.ts', 'import', '../commands/whoami.js'],
  ['src/api/serve.ts', 'import', '../cli/output/output.js'],
  ['src/client/thing.ts', 'import', '../services/context.js'],
  ['src/client/thing.ts', 'import', '../store/schema.js'],
  ['src/client/thing.ts', 'import', '../commands/whoami.js'],
  ['src/client/thing.ts', 'import', '../api/app.js'],
  ['src/client/thing.ts', 'import', '../cli/output/output.js'],
  ['src/cli/thing.ts', 'import', '../services/settings.js'],
  ['src/commands/thing.ts', 'import', '../services/settings.js'],
  ['src/commands/workspace/thing.ts', 'import', '../../services/workspaces-read.js'],
  ['src/commands/workspace/thing.ts', 'await import', '../../services/workspaces-read.js'],
  ['src/commands/thing.ts', 'import type', '../services/context.js'],
  ['src/client/thing.ts', 'import type', '../store/schema.js'],
  // The web console is a browser app: it reaches berth over HTTP only, and nothing loads it.
  ['src/console/thing.ts', 'import', '../api/app.js'],
  ['src/console/pages/thing.tsx', 'import', '../../domain/common/errors.js'],
  ['src/console/thing.ts', 'await import', '../client/client.js'],
  ['src/console/thing.ts', 'import', 'node:fs'],
  ['src/console/thing.ts', 'import', 'hono'],
  ['src/api/thing.ts', 'import', '../console/app.js'],
  ['src/api/serve.ts', 'import', '../console/app.js'],
  ['src/cli/thing.ts', 'import', '../console/app.js'],
  ['src/cli/connection/local.ts', 'await import', '../../console/app.js'],
  ['src/commands/thing.ts', 'import', '../console/app.js'],
  ['src/domain/rule.ts', 'import', '../console/app.js'],
  // The executor and the scheduler reach berth through services, never the app or the CLI.
  ['src/runner/thing.ts', 'import', '../api/app.js'],
  ['src/runner/thing.ts', 'import', '../cli/output/output.js'],
  ['src/runner/thing.ts', 'import', '../client/client.js'],
  ['src/scheduler/thing.ts', 'import', '../api/app.js'],
  ['src/scheduler/thing.ts', 'import', '../runner/executor.js'],
  ['src/services/thing.ts', 'import', '../runner/port.js'],
  ['src/domain/rule.ts', 'import', '../runner/port.js'],
  ['src/api/thing.ts', 'import', '../runner/executor.js'],
  ['src/api/thing.ts', 'import', '../scheduler/scheduler.js'],
];

/** [file, how, module]: an import its layer allows (the exceptions above stay exceptions). */
const ALLOWED: [string, Kind, string][] = [
  ['src/domain/runs/rule.ts', 'import', '../common/errors.js'],
  ['src/cli/workspaces/thing.ts', 'import', '../../client/client.js'],
  ['src/cli/workspaces/thing.ts', 'import', '../output/output.js'],
  ['src/domain/rule.ts', 'import', 'node:crypto'],
  ['src/domain/rule.ts', 'import', 'valibot'],
  ['src/domain/rule.ts', 'import', './errors.js'],
  ['src/store/query.ts', 'import', '../domain/common/errors.js'],
  ['src/store/query.ts', 'import', 'kysely'],
  ['src/services/thing.ts', 'import', '../store/transaction.js'],
  ['src/services/thing.ts', 'import', 'kysely'],
  ['src/api/thing.ts', 'import type', '../store/schema.js'],
  ['src/api/routes/thing.ts', 'import type', '../../store/schema.js'],
  ['src/api/thing.ts', 'import', '../store/transaction.js'],
  ['src/api/thing.ts', 'import', '../store/database-errors.js'],
  ['src/api/thing.ts', 'import', '../services/context.js'],
  ['src/api/serve.ts', 'import', '../store/open.js'],
  ['src/client/thing.ts', 'import', '../domain/common/errors.js'],
  ['src/cli/thing.ts', 'import', '../client/client.js'],
  ['src/cli/connection/local.ts', 'import', '../../services/settings.js'],
  ['src/commands/thing.ts', 'import', '../cli/base-command.js'],
  ['src/commands/thing.ts', 'await import', '../store/backup.js'],
  ['src/commands/thing.ts', 'await import', '../api/serve.js'],
  ['src/console/thing.ts', 'import', 'preact/hooks'],
  ['src/console/pages/thing.tsx', 'import', '../api.js'],
  ['src/console/thing.ts', 'import type', '../domain/workspaces/workspace.js'],
  ['src/runner/thing.ts', 'import', '../services/runs/run-claim.js'],
  ['src/scheduler/thing.ts', 'import', '../store/transaction.js'],
  ['src/api/thing.ts', 'import', '../runner/wake.js'],
  ['src/api/serve.ts', 'await import', '../runner/executor.js'],
  ['src/api/serve.ts', 'await import', '../scheduler/scheduler.js'],
  ['src/commands/thing.ts', 'await import', '../runner/agent.js'],
];

describe('the layer rules of docs/architecture.md (eslint.config.js)', () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT, overrideConfig: [tseslint.configs.disableTypeChecked] });
  });

  it.each(FORBIDDEN)('%s: %s %s is refused, naming docs/architecture.md', async (file, kind, from) => {
    const errors = await layerErrors(file, CODE[kind](from));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('docs/architecture.md');
  });

  it.each(ALLOWED)('%s: %s %s is allowed', async (file, kind, from) => {
    expect(await layerErrors(file, CODE[kind](from))).toEqual([]);
  });
});
