import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import type { DB } from '../../src/store/schema.js';
import { recordAuditEvent, retargetAuditEvent } from '../../src/services/audit/audit-trail.js';

const subject = (name: string) => ({
  target: { type: 'workspaces', id: `ws-${name}`, name },
  organizationId: 'org-1',
  organizationName: 'acme',
  workspaceId: `ws-${name}`,
});
const actor = { kind: 'user', id: 'user-1', tokenId: 'at-1', name: 'alice' } as const;

/** Migration 018 on a SQLite database with records: rebuilt without AUTOINCREMENT and four indexes, records kept. */
describe('migration 018: a leaner audit_events', () => {
  it('keeps every record and its seq, leaves one index, and new records follow the highest seq', async () => {
    const sqlite = new Database(':memory:');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version < 18),
      );
      const input = (name: string) => ({
        time: '2026-01-01T00:00:00.000Z',
        action: 'workspace.lock',
        actor,
        subject: subject(name),
        requestId: null,
      });
      for (const name of ['a', 'b', 'c']) await recordAuditEvent(db, input(name));
      const before = await db.selectFrom('audit_events').selectAll().orderBy('seq').execute();
      expect(before.map((r) => r.seq)).toEqual([1, 2, 3]);

      await migrate(db);
      expect(await db.selectFrom('audit_events').selectAll().orderBy('seq').execute()).toEqual(before);
      const schema = sqlite
        .prepare("select type, name, sql from sqlite_master where tbl_name = 'audit_events' and sql is not null")
        .all() as { type: string; name: string; sql: string }[];
      expect(schema.filter((s) => s.type === 'index').map((s) => s.name)).toEqual(['audit_events_org']);
      expect(schema.find((s) => s.type === 'table')!.sql).not.toMatch(/autoincrement|unique/i);

      const seq = await recordAuditEvent(db, input('d'));
      expect(seq).toBe(4);
      await retargetAuditEvent(db, seq, subject('e'));
      const last = await db.selectFrom('audit_events').selectAll().where('seq', '=', 4).executeTakeFirstOrThrow();
      expect([last.target_name, last.workspace_id, last.organization_name]).toEqual(['e', 'ws-e', 'acme']);
    } finally {
      await db.destroy();
    }
  });
});
