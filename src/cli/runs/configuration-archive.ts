import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';

/**
 * The configuration `berth run start` uploads: a folder as a tar.gz, without what its
 * `.terraformignore` excludes (gitignore-like rules: `#` comments, `!` to include again, a
 * trailing `/` for folders only, a `/` at the start or inside to anchor at the folder, `*`, `?`
 * and `**`). `.git/` and `.terraform/` are always left out.
 */

interface Rule {
  negate: boolean;
  dirOnly: boolean;
  pattern: RegExp;
}

function globToRegExp(glob: string, anchored: boolean): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*' && glob[i + 1] === '*') {
      // `**/` matches any number of folders (none too), `**` anything.
      if (glob[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${anchored ? '' : '(?:.*/)?'}${re}$`);
}

export function parseIgnore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    if (line === '') continue;
    rules.push({ negate, dirOnly, pattern: globToRegExp(line, anchored) });
  }
  return rules;
}

/** Whether `path` (relative, `/`-separated) is excluded: the last rule that matches decides. */
export function ignored(rules: Rule[], path: string, isDir: boolean): boolean {
  let out = false;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.pattern.test(path)) out = !rule.negate;
  }
  return out;
}

const ALWAYS = parseIgnore('.git/\n.terraform/\n');

/** The folder `dir` as a gzip'd tar, paths relative to it; `files` lists what went in. */
export async function configurationArchive(dir: string): Promise<{ archive: Buffer; files: string[] }> {
  let text = '';
  try {
    text = readFileSync(join(dir, '.terraformignore'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const rules = [...parseIgnore(text), ...ALWAYS];
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const isDir = entry.isDirectory();
      if (ignored(rules, path, isDir)) continue;
      if (isDir) walk(path);
      else if (entry.isFile() || entry.isSymbolicLink()) files.push(path);
    }
  };
  walk('');
  files.sort();
  const chunks: Buffer[] = [];
  // Files only (their folders are created on extraction); `portable`: no owner or mtime noise.
  const pack = create({ gzip: true, cwd: dir, portable: true, noDirRecurse: true }, files);
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
  return { archive: Buffer.concat(chunks), files };
}
