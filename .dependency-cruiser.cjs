/**
 * The import rules, all of them (run by `npm run lint` as `npm run lint:imports`, `depcruise`):
 * - no import cycle, type-only imports included (ESLint's import/no-cycle skipped `import type`);
 * - every package a file imports is declared in the package.json closest to it;
 * - the module and feature boundaries (they were eslint-plugin-import's no-restricted-paths until
 *   issue 50: docs/decisions/2026-12-07-import-rules-in-dependency-cruiser.md).
 * apps/server/src/import-rules.engine-free.test.ts shows the cycle rule catching a type-only cycle and the tree
 * having no violation.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle, type-only imports included: move the shared piece down (a type, a helper) so the arrows point one way.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'jobs-runner-knows-no-job',
      severity: 'error',
      comment: 'The scheduler runs the list server.ts composes; it imports no module (or job), so a job can never close a cycle through it.',
      from: { path: '^apps/server/src/jobs/scheduler\\.ts$' },
      to: { path: '^apps/server/src/(modules/|jobs/(?!runs\\.ts$))' },
    },
    {
      name: 'no-undeclared-dependency',
      severity: 'error',
      comment:
        'Every package a file imports is declared in the package.json closest to it: a workspace (apps/*, packages/*) declares what its own files import, tests and build scripts included; the root package.json what bench/, e2e/, scripts/ and the root config files import. Declare it there at the version the lockfile already holds (npm install <pkg>@<version> -w <workspace>). A package that is only there because another one depends on it can go away with that one.',
      from: {},
      // npm-no-pkg: in node_modules but in no dependency list of the closest package.json;
      // npm-unknown: no package.json found; unknown: not resolvable at all (not installed, or a typo).
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'unknown'] },
    },
    {
      name: 'no-undeclared-workspace',
      severity: 'error',
      comment:
        'A workspace imports another workspace by name only if it declares it: @app/core is the only one any workspace declares (apps/server, apps/web). The apps never import each other.',
      from: { path: '^(apps|packages)/[^/]+/' },
      // A workspace's import of another one resolves through the node_modules symlink to the
      // workspace's own folder, which dependency-cruiser calls "undetermined" (not local, not npm).
      to: { dependencyTypes: ['undetermined'], pathNot: '^packages/core/' },
    },
    {
      name: 'server-module-through-its-service',
      severity: 'error',
      comment: 'Reach another server module through its service.ts only (table.ts only declares its tables). Tests may reach into what they test.',
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        // A service.ts or table.ts at any depth of the other module, as the ESLint glob had it.
        pathNot: ['^apps/server/src/modules/$1/', '/(service|table)\\.ts$'],
      },
    },
    {
      name: 'web-features-do-not-import-each-other',
      severity: 'error',
      comment: 'Web features do not import each other; move shared code to components/, lib/ or @app/core.',
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-components-and-lib-import-no-feature',
      severity: 'error',
      comment:
        'components/ and lib/ never import a feature (they sit below the features), their tests included: move the shared code down to lib/ or components/, or the component up into the feature or app/.',
      from: { path: '^apps/web/src/(components|lib)/' },
      to: { path: '^apps/web/src/features/' },
    },
  ],
  options: {
    // Read imports before TypeScript erases the type-only ones.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Our own build output only: a package's dist/ in node_modules is what its import resolves to,
    // and excluding it would hide that import from the rules above.
    exclude: { path: ['^(apps|packages)/[^/]+/dist/'] },
    // Resolve @app/core/* through its package.json exports to the .ts sources, as Vite and tsc do.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
    },
  },
};
