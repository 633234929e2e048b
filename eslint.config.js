import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
      // Each call builds a new Intl formatter, and the first one loads ICU's data (packages/core/src/format.ts).
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][arguments.length>0]',
          message:
            'toLocaleString with a locale builds a formatter per call: keep one Intl.NumberFormat / DateTimeFormat (see formatAmount in @app/core/format).',
        },
      ],
    },
  },
  // Import rules (cycles, module and feature boundaries, undeclared packages) are dependency-cruiser's:
  // .dependency-cruiser.cjs, `npm run lint:imports`.
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
