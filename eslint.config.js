import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const dirs = (path) =>
  readdirSync(path, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const serverModules = dirs('apps/server/src/modules');
const webFeatures = dirs('apps/web/src/features');

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/coverage/**', 'e2e/artifacts/**', 'docs/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn', 'log'] }],
      // The package index makes Node load about 1,500 files: 2.8 s on every server and CLI start.
      'no-restricted-imports': ['error', { paths: [{ name: 'date-fns', message: "Import the function's own module, e.g. 'date-fns/format'." }] }],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'import/ignore': ['node_modules'],
      'import/external-module-folders': ['node_modules'],
    },
    // Import cycles (type-only imports included, which import/no-cycle skips) are dependency-cruiser's:
    // .dependency-cruiser.cjs, `npm run lint:imports`.
  },
  {
    files: ['**/*.{ts,tsx}'],
    // Tests may reach into what they test.
    ignores: ['**/*.test.ts', 'apps/server/src/test/**'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            // A server module reaches another only through its service.ts (its public exports); table.ts only declares its tables.
            ...serverModules.map((m) => ({
              target: `./apps/server/src/modules/${m}/**`,
              from: `./apps/server/src/modules/!(${m})/**/!(service|table).ts`,
              message: 'Reach another server module through its service.ts only.',
            })),
            // A web feature never imports another feature: share through components/, lib/ or @app/core.
            ...webFeatures.map((f) => ({
              target: `./apps/web/src/features/${f}/**`,
              from: `./apps/web/src/features/!(${f})/**`,
              message: 'Web features do not import each other; move shared code to components/, lib/ or @app/core.',
            })),
          ],
        },
      ],
    },
  },
  {
    // components/ and lib/ sit below the features (several features use them): they never import one,
    // their tests included. Only these files get this rule's options here, and no zone above targets them.
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['./apps/web/src/components', './apps/web/src/lib'],
              from: './apps/web/src/features',
              message:
                'components/ and lib/ never import a feature: move the shared code down to lib/ or components/, or the component up into the feature or app/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A route parses, calls one service function and answers: transactions and queries live in services.
    files: ['apps/server/src/modules/*/routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(transaction|selectFrom|insertInto|updateTable|deleteFrom)$/]',
          message: 'No transaction or query in a route: move it, with its rules, into the owning module’s service.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
