import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { usageError } from '../common/prompts.js';

/**
 * What `terraform providers mirror DIR` wrote (Terraform's network mirror layout):
 * `DIR/HOSTNAME/NAMESPACE/TYPE/VERSION.json`, each listing its platforms' archives (`url`, a file
 * beside it) and their `h1:` hashes. Read for `berth registry mirror push`.
 */

export interface MirrorFolderArchive {
  hostname: string;
  namespace: string;
  type: string;
  version: string;
  platform: string;
  filename: string;
  file: string;
  size: number;
  hashes: string[];
}

async function dirs(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

export async function mirrorFolderArchives(dir: string): Promise<MirrorFolderArchive[]> {
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw usageError(`${dir} is no folder`);
  const out: MirrorFolderArchive[] = [];
  for (const hostname of await dirs(dir))
    for (const namespace of await dirs(join(dir, hostname)))
      for (const type of await dirs(join(dir, hostname, namespace))) {
        const at = join(dir, hostname, namespace, type);
        for (const name of (await readdir(at)).sort()) {
          if (!name.endsWith('.json') || name === 'index.json') continue;
          const version = name.slice(0, -'.json'.length);
          let doc: { archives?: Record<string, { url?: string; hashes?: string[] }> };
          try {
            doc = JSON.parse(await readFile(join(at, name), 'utf8')) as typeof doc;
          } catch (err) {
            throw usageError(
              `${relative(dir, join(at, name))} is not a mirror's version document: ${(err as Error).message}`,
            );
          }
          for (const [platform, archive] of Object.entries(doc.archives ?? {})) {
            const filename = archive.url ?? '';
            if (filename === '' || filename.includes('/') || filename.includes(sep) || filename.includes('..'))
              throw usageError(`${relative(dir, join(at, name))}: ${platform} names no archive beside it`);
            const file = join(at, filename);
            const info = await stat(file).catch(() => null);
            if (!info?.isFile()) throw usageError(`${relative(dir, file)} is missing`);
            out.push({
              hostname,
              namespace,
              type,
              version,
              platform,
              filename,
              file,
              size: info.size,
              hashes: archive.hashes ?? [],
            });
          }
        }
      }
  return out;
}

/** The archive's `zh:` hash (its SHA-256), read a chunk at a time. */
export async function zipHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `zh:${hash.digest('hex')}`;
}
