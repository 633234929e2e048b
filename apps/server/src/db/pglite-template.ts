import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryFS } from '@electric-sql/pglite';

/** PGlite's data directory inside its WebAssembly file system (PGDATA in PGlite's initdb.ts). */
const PGDATA = '/pglite/data';

/** A PGlite data directory held in memory: its folders (parents first) and files, relative to it. */
export interface PgliteTemplate {
  dirs: string[];
  files: [relativePath: string, data: Uint8Array][];
}

/** Reads a closed PGlite data directory (a server's `DATA_DIR/pglite`) into memory. */
export function readPgliteTemplate(dir: string): PgliteTemplate {
  const template: PgliteTemplate = { dirs: [], files: [] };
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        template.dirs.push(child);
        walk(child);
      } else if (entry.isFile()) {
        template.files.push([child, new Uint8Array(readFileSync(path.join(dir, child)))]);
      }
    }
  };
  walk('');
  return template;
}

/**
 * An in-memory PGlite that starts as a copy of `template` (the tests' migrated database). PGlite's
 * own `loadDataDir` takes a tarball and unpacks it for every database it opens: for the 43 MB
 * template that was about half a CPU-second a test file (a tar parser copying each file out, then
 * the file system copying it in). Here each file is copied once, straight into the file system,
 * before PGlite looks for a database, so it finds one and starts it.
 */
export class TemplateMemoryFS extends MemoryFS {
  constructor(private readonly template: PgliteTemplate) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    const FS = this.pg!.Module.FS;
    FS.mkdirTree(PGDATA);
    for (const dir of this.template.dirs) FS.mkdir(PGDATA + dir);
    for (const [file, data] of this.template.files) FS.writeFile(PGDATA + file, data);
  }
}
