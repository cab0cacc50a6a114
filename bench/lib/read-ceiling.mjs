// The ceiling of serve-read without its read cache: what a server with no framework, no
// authentication and no berth code reaches when each answer costs only what an uncached
// workspace GET cannot avoid. A bare node:http server (own process) over a copy of the seed that,
// for every request, asks SQLite whether the database changed (`pragma data_version`, as berth's
// caches of security facts do), reads the workspace with one statement of the shape berth's has
// (the row with its organization and project, its retention policy and its tag names; rows as
// arrays, as berth's direct reads get them) and writes JSON.stringify of the document berth
// answered, with the row's name put in, so that a whole object of the same shape is serialized
// each time. It answers every path with that workspace.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { startScriptServer } from './server.mjs';

const WORKSPACE_STATEMENT = `
  select workspaces.*, organizations.name as org_name,
    organizations.default_execution_mode as org_execution_mode,
    organizations.default_agent_pool_id as org_agent_pool_id,
    organizations.allow_force_delete_workspaces as org_allow_force_delete,
    organizations.assessments_enforced as org_assessments_enforced,
    projects.default_execution_mode as project_execution_mode,
    projects.execution_overridden as project_execution_overridden,
    projects.default_agent_pool_id as project_agent_pool_id,
    projects.auto_destroy_activity_duration as project_auto_destroy,
    (select id from data_retention_policies where workspace_id = workspaces.id limit 1) as drp_id,
    (select kind from data_retention_policies where workspace_id = workspaces.id limit 1) as drp_kind,
    (select json_group_array(tags.name order by workspace_tags.seq) from workspace_tags
      join tags on tags.id = workspace_tags.tag_id where workspace_tags.workspace_id = workspaces.id) as tag_names_json
  from workspaces join organizations on organizations.id = workspaces.organization_id
  join projects on projects.id = workspaces.project_id
  where workspaces.id = ?`;

const SERVER = `
  const [file, optionsFile] = process.argv.slice(1);
  const { readFileSync } = require('node:fs');
  const { statement, id, document } = JSON.parse(readFileSync(optionsFile, 'utf8'));
  const Database = require(require.resolve('better-sqlite3', { paths: [${JSON.stringify(ROOT)}] }));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const changed = db.prepare('pragma data_version').pluck();
  const read = db.prepare(statement).raw(true);
  const name = read.columns().findIndex((c) => c.name === 'name');
  const server = require('node:http').createServer((req, res) => {
    changed.get();
    const row = read.get(id);
    const attributes = { ...document.data.attributes, name: row[name] };
    const body = JSON.stringify({ ...document, data: { ...document.data, attributes } });
    res.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));`;

/**
 * Starts the ceiling server over a copy of `seedFile`, answering with `document` (the JSON:API
 * document berth answered for the workspace `id`).
 */
export async function startReadCeiling(seedFile, id, document) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-ceiling-'));
  const file = join(dir, 'ceiling.db');
  const optionsFile = join(dir, 'options.json');
  copyFileSync(seedFile, file);
  writeFileSync(optionsFile, JSON.stringify({ statement: WORKSPACE_STATEMENT, id, document }));
  return startScriptServer(SERVER, [file, optionsFile], 'read ceiling server', () =>
    rmSync(dir, { recursive: true, force: true }),
  );
}
