import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { entrySources } from './entry-points';

const root = path.resolve(import.meta.dirname, '../../../..');

/**
 * Each file's own directory for `import.meta.dirname`: the code finds its migrations, schema and
 * the web build next to its source, wherever the bundle is written.
 */
const ownDirname: Plugin = {
  name: 'own-dirname',
  setup(b) {
    b.onLoad({ filter: /[\\/](apps|packages)[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      return { contents: text.replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))), loader: 'ts' };
    });
  },
};

/**
 * Dependencies that find files beside themselves, or load themselves in a worker thread by path,
 * and so must stay in node_modules: PGlite (its WASM and data), argon2 (a native addon), the
 * Swagger UI (its static files), pino and its transports (thread-stream starts workers from
 * files), pg's optional native binding, and tsx.
 */
const KEPT_OUTSIDE = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@node-rs/argon2',
  '@fastify/swagger-ui',
  'pino',
  'pino-pretty',
  'thread-stream',
  'pg-native',
  'tsx',
  'tsx/*',
];

/**
 * The server, the CLI and the test's lock holder as one JavaScript file each, for the tests that
 * start real processes (about 85 a run). The same source as `npm start` runs, without tsx resolving
 * and compiling some 300 modules on every start: a start costs about 1.2 CPU-s less here. The
 * dependencies are bundled too, but for KEPT_OUTSIDE: Node's loader resolving some 200 packages'
 * files was about 0.4 of the 3 CPU-s a start cost. The migrations are bundled too (db/migration-list.ts).
 * Written under apps/server/dist (ignored by git, lint and
 * format) so the kept-outside imports resolve; each run gets its own folder.
 */
export async function bundleServer(): Promise<string> {
  mkdirSync(path.join(root, 'apps/server/dist'), { recursive: true });
  const outdir = mkdtempSync(path.join(root, 'apps/server/dist/test-bundle-'));
  await build({
    entryPoints: entrySources(),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: KEPT_OUTSIDE,
    alias: { '@app/core': path.join(root, 'packages/core/src') },
    plugins: [ownDirname],
    outExtension: { '.js': '.mjs' },
    // CommonJS dependencies inlined by esbuild call `require`, which an ES module lacks.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return outdir;
}
