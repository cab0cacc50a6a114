import { describe, expect, it } from 'vitest';
import {
  DatabaseLocationError,
  describeLocation,
  parseDatabaseLocation,
  resolveDatabaseLocation,
} from '../../src/store/location.js';

describe('--database locations', () => {
  it('reads postgres:// and postgresql:// URLs as PostgreSQL, as given', () => {
    expect(parseDatabaseLocation('postgres://u:p@db:5432/berth?sslmode=require')).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/berth?sslmode=require',
    });
    expect(parseDatabaseLocation('postgresql://db/berth')).toEqual({ kind: 'postgres', url: 'postgresql://db/berth' });
  });

  it('reads sqlite: URLs and plain paths as SQLite files', () => {
    expect(parseDatabaseLocation('sqlite:berth.db')).toEqual({ kind: 'sqlite', path: 'berth.db' });
    expect(parseDatabaseLocation('sqlite:///var/lib/berth.db')).toEqual({ kind: 'sqlite', path: '/var/lib/berth.db' });
    expect(parseDatabaseLocation('./data/berth.db')).toEqual({ kind: 'sqlite', path: './data/berth.db' });
    expect(parseDatabaseLocation('C:\\berth\\berth.db')).toEqual({ kind: 'sqlite', path: 'C:\\berth\\berth.db' });
  });

  it('refuses empty values, unknown schemes and URLs without a host', () => {
    expect(() => parseDatabaseLocation('  ')).toThrow(DatabaseLocationError);
    expect(() => parseDatabaseLocation('mysql://db/berth')).toThrow(/unsupported database URL scheme "mysql:"/);
    expect(() => parseDatabaseLocation('sqlite:')).toThrow(/names no file/);
    expect(() => parseDatabaseLocation('postgres:///berth')).toThrow(/names no host/);
  });

  it('takes --database, else BERTH_DATABASE_URL, else the SQLite file of --db / BERTH_DB', () => {
    const env = { BERTH_DATABASE_URL: 'postgres://env/berth', BERTH_DB: '/env.db' };
    expect(resolveDatabaseLocation({ database: 'postgres://flag/berth', db: 'x.db' }, env)).toEqual({
      kind: 'postgres',
      url: 'postgres://flag/berth',
    });
    expect(resolveDatabaseLocation({ db: 'x.db' }, env)).toEqual({ kind: 'postgres', url: 'postgres://env/berth' });
    // An explicit --db wins over $BERTH_DB; without it, $BERTH_DB is used.
    expect(resolveDatabaseLocation({ db: 'x.db' }, { BERTH_DB: '/env.db' })).toEqual({ kind: 'sqlite', path: 'x.db' });
    expect(resolveDatabaseLocation({}, { BERTH_DB: '/env.db' })).toEqual({ kind: 'sqlite', path: '/env.db' });
    expect(resolveDatabaseLocation({ db: 'x.db' }, {})).toEqual({ kind: 'sqlite', path: 'x.db' });
  });

  it('never shows a password', () => {
    expect(describeLocation({ kind: 'postgres', url: 'postgres://berth:hunter2@db:5432/berth' })).toBe(
      'postgres://berth:***@db:5432/berth',
    );
    expect(describeLocation({ kind: 'postgres', url: 'postgres://berth@db/berth' })).toBe('postgres://berth@db/berth');
  });
});
