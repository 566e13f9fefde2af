import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/.ssr/**', '**/node_modules/**', '.nx/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through the service config (libs/config), not process.env.',
        },
      ],
    },
  },
  {
    // Layering a tool checks (issue 12): services build on libs, never on each other; libs
    // build on libs; the web only on the browser-safe libs (contracts, money, plans), which
    // themselves stay browser-safe. Tests that start several services are the exception
    // and live outside src/.
    files: ['services/*/src/**/*.ts', 'libs/*/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['platform:browser'] },
            { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:browser'] },
          ],
        },
      ],
    },
  },
  {
    // A feature is used through its index (its public surface), never through its files.
    files: ['web/src/features/**/*.{ts,tsx}', 'web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*/*'],
              message: 'Import another feature through its index: @/features/<name>.',
            },
          ],
        },
      ],
    },
  },
  {
    // Entry points, tooling and tests are where the environment is legitimately read.
    files: [
      'tools/**',
      'bench/**',
      '**/test/**',
      'e2e/**',
      '**/*.config.ts',
      'vitest.reporters.ts',
      'libs/config/**',
      'libs/testing/**',
      'web/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  prettier,
);
