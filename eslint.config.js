// Lint rules for the whole tree (`npm run lint`, part of `npm test`): typescript-eslint's
// recommended set, the React hooks rules for the console, and prettier's layout (checked by
// `prettier --check` beside it).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/', 'build/', 'node_modules/', 'test-results/', 'playwright-report/', 'e2e/artifacts/', '.scratch/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // A leading underscore names what is dropped on purpose (a field left out of a copy, an
      // argument a signature needs); a rest sibling is how a field is dropped from a record.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Tests read JSON answers and hosts' raw events whose shapes their assertions check: typing
    // each one there would only repeat the assertions.
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/*.testutil.ts',
      '**/test/**',
      'tests/**',
      'server/testkit/**',
      'e2e/**',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
