// ESLint: typescript-eslint's type-checked rules for the bugs types alone miss, and the layer
// rules of docs/architecture.md (which folder may import which), so a change that breaks a
// layer fails `npm run lint` and so `npm test`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const see = 'see docs/architecture.md, "Layers"';

/** Modules that do I/O (with or without the `node:` prefix), which src/domain must not import. */
const io = String.raw`^((node:)?(fs|http|https|http2|net|tls|dgram|child_process|worker_threads)|better-sqlite3|pg|kysely|hono|@hono\/.*)(\/.*)?$`;

/** A relative import of one of the folders of src/ (`../store/x.js`, `../../services/y.js`). */
const folder = (...names) => String.raw`^\.\.?\/(.*\/)?(${names.join('|')})\/`;

/** A pattern forbidding the named folders of src/ to the folder `from`. */
const folders = (from, ...names) => ({
  regex: folder(...names),
  message: `src/${from} must not import ${names.map((n) => `src/${n}`).join(', ')} (${see}).`,
});

/**
 * The rules of a layer: its forbidden patterns for import and export declarations, and the same
 * patterns for dynamic `import()`, which no-restricted-imports does not see (a type-only import
 * is no dynamic import, so allowTypeImports does not apply there).
 */
const layer = (...patterns) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    { patterns: patterns.map((p) => ({ ...p, caseSensitive: true })) },
  ],
  'no-restricted-syntax': [
    'error',
    ...patterns.map(({ regex, message }) => ({ selector: `ImportExpression[source.value=/${regex}/]`, message })),
  ],
});

/** What each folder of src/ must not import. */
const layers = {
  domain: layer(
    { regex: io, message: `src/domain does no I/O (${see}).` },
    folders('domain', 'store', 'services', 'api', 'cli', 'client', 'commands', 'console', 'runner', 'scheduler'),
  ),
  store: layer(folders('store', 'services', 'api', 'cli', 'client', 'commands', 'console', 'runner', 'scheduler')),
  services: layer(folders('services', 'api', 'cli', 'client', 'commands', 'console', 'runner', 'scheduler'), {
    regex: String.raw`^(hono|@hono\/.*)(\/.*)?$`,
    message: `src/services knows no HTTP (${see}).`,
  }),
  api: layer(
    folders('api', 'cli', 'client', 'commands', 'console', 'scheduler'),
    {
      regex: String.raw`^\.\.?\/(.*\/)?store\/(?!(transaction|database-errors)\.js$)`,
      allowTypeImports: true,
      message: `src/api imports from src/store only types, store/transaction.js and store/database-errors.js (${see}).`,
    },
    {
      regex: String.raw`^\.\.?\/(.*\/)?runner\/(?!wake\.js$)`,
      message: `src/api imports of src/runner only wake.js, its signals (${see}).`,
    },
  ),
  // src/api/serve.ts is the composition root of `berth serve`: it opens the store for the app.
  apiServe: layer(folders('api', 'cli', 'client', 'commands', 'console')),
  client: layer(folders('client', 'services', 'store', 'commands', 'api', 'cli', 'console', 'runner', 'scheduler')),
  // src/runner (the executor, serve's and berth agent's) and src/scheduler reach berth through
  // services (or, in an agent, over HTTP), never through the app or the CLI.
  runner: layer(folders('runner', 'api', 'cli', 'client', 'commands', 'console', 'scheduler')),
  scheduler: layer(folders('scheduler', 'api', 'cli', 'client', 'commands', 'console', 'runner')),
  cli: layer(folders('cli', 'services', 'console')),
  // src/cli/connection/local.ts is the composition root of local mode: it opens the store, loads its settings, builds the app.
  cliLocal: layer(folders('cli', 'console')),
  commands: layer(folders('commands', 'services', 'console')),
  // src/console is the browser app (docs/console.md): it reaches the API over HTTP only, so it
  // imports nothing of the rest of src/ but types, no Node module, and no package but preact.
  console: layer(
    {
      regex: String.raw`^(\.\.\/)+(api|cli|client|commands|domain|services|store)\/`,
      allowTypeImports: true,
      message: `src/console imports only types from the rest of src/ (docs/console.md; ${see}).`,
    },
    {
      regex: String.raw`^(?!\.|preact($|\/))`,
      message: `src/console imports no package but preact (docs/console.md; ${see}).`,
    },
  ),
};

/** Node's globals, as the Node that runs ESLint has them (for the plain .js/.mjs files). */
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default defineConfig(
  { ignores: ['dist/', 'dist-build-*/', 'node_modules/', 'coverage/', 'bench/.cache/', 'oclif.manifest.json'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // The vitest configs sit outside tsconfig.json's folders; they get its options all the same.
          allowDefaultProject: ['vitest.config.ts', 'vitest.postgres.config.ts', 'vitest.browser.config.ts'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `const { seq: _seq, ...values } = row` is how the code leaves a property out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['bin/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { __dirname: 'readonly', __filename: 'readonly' } },
    // bin/ is CommonJS on purpose (bin/package.json): an ES module entry would load Node's ESM loader first.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read JSON:API documents as untyped JSON (`await res.json()`) and assert on them.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/store/migrations/**/*.ts'],
    // A migration works on the schema of its own time, not on today's schema.ts: kysely's Kysely<any> by design.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/commands/**/*.ts'],
    // oclif awaits every command's run(); a command with nothing to await still declares it async.
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  { files: ['src/domain/**/*.ts'], rules: layers.domain },
  { files: ['src/store/**/*.ts'], rules: layers.store },
  { files: ['src/services/**/*.ts'], rules: layers.services },
  { files: ['src/api/**/*.ts'], rules: layers.api },
  { files: ['src/runner/**/*.ts'], rules: layers.runner },
  { files: ['src/scheduler/**/*.ts'], rules: layers.scheduler },
  { files: ['src/api/serve.ts'], rules: layers.apiServe },
  { files: ['src/client/**/*.ts'], rules: layers.client },
  { files: ['src/cli/**/*.ts'], rules: layers.cli },
  { files: ['src/cli/connection/local.ts'], rules: layers.cliLocal },
  { files: ['src/commands/**/*.ts'], rules: layers.commands },
  { files: ['src/console/**/*.{ts,tsx}'], rules: layers.console },
  {
    files: ['src/console/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: false, project: 'src/console/tsconfig.json' } },
  },
);
