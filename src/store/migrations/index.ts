import type { Kysely } from 'kysely';
import * as m001 from './001_foundation.js';

export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<any>): Promise<void>;
}

/** Numbered, forward-only. Append new migrations here; never edit one that has shipped. */
export const MIGRATIONS: Migration[] = [{ version: 1, name: 'foundation', up: m001.up }];
