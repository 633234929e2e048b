/**
 * Import rules that ESLint's import plugin cannot see: its no-cycle skips `import type`, and a
 * type-only cycle still ties two files together (the jobs runner and every job were one). Run by
 * `npm run lint` (`depcruise`); apps/server/src/import-rules.test.ts shows the cycle rule catching
 * a type-only cycle. The module and feature boundaries stay in eslint.config.js.
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
  ],
  options: {
    // Read imports before TypeScript erases the type-only ones.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/'] },
    // Resolve @app/core/* through its package.json exports to the .ts sources, as Vite and tsc do.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
    },
  },
};
