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
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Web features do not import each other: compose them in app/ or share through components/ and lib/.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./\\.\\./(?!\\.\\.)[^/]+/(api|components|pages|hooks)/', message: 'Features do not import each other; move shared code to components/, lib/ or @app/core.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      // Server modules talk to each other only through their service exports.
      'no-restricted-imports': ['error', { patterns: [{ group: ['../*/routes', '../*/routes.ts'], message: 'Import another module through its service, not its routes.' }] }],
    },
  },
);
