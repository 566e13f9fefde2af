import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import moduleBoundaries from './tools/eslint/module-boundaries.mjs';

const SERVICES = ['analytics', 'catalog', 'delivery', 'gateway', 'identity', 'payments', 'worker'];

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
    // Layering a tool checks (issue 12): services build on libs, never on each other — not even
    // in their tests; libs build on libs; the web only on the browser-safe libs (contracts,
    // money, plans), which themselves stay browser-safe (a lib's own tests may use libs/testing,
    // which builds on db and contracts). Tests that start several services
    // are their own project (tests/stack, type:tests) and the only place services meet.
    files: ['services/*/{src,test}/**/*.ts', 'libs/*/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
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
            // A service's code (src and tests) reaches only its own scope and the shared libs.
            ...SERVICES.map((service) => ({
              sourceTag: `scope:${service}`,
              onlyDependOnLibsWithTags: [`scope:${service}`, 'scope:shared'],
            })),
          ],
        },
      ],
    },
  },
  {
    // Inside a project, imports run one way: no file reaches itself again through its imports
    // (issue 26), and a service split into src/modules/<name>/ is entered only through a
    // module's index.ts (tools/eslint/module-boundaries.mjs).
    files: ['services/*/{src,test}/**/*.ts', 'libs/*/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    plugins: { modules: moduleBoundaries },
    rules: {
      'modules/no-cycle': ['error', { aliases: { '@/': 'web/src/' } }],
      'modules/through-index': 'error',
    },
  },
  {
    // The stack tests start services in-process, so they import the services' app modules,
    // which Nx otherwise forbids; they may use libs too, and nothing may import them.
    files: ['tests/**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // Regular expressions (nx treats a pattern without `/*` or `/**` as one).
          allow: [
            '^@lockdrop/(analytics|catalog|delivery|gateway|identity|payments|worker)/(src|test|seed)/',
            // The launcher behind npm start, the e2e run and the benchmark (and its reachability
            // probe): the chaos suite runs the same stack.
            '^(\\.\\./)+tools/(stack|reachable)\\.mjs$',
          ],
          depConstraints: [
            { sourceTag: 'type:tests', onlyDependOnLibsWithTags: ['type:service', 'type:lib'] },
          ],
        },
      ],
    },
  },
  {
    // Features stand side by side: one imports shared code (components, lib, config, the
    // browser-safe libs) and the auth feature's index, never another feature. What a screen
    // needs from several features is composed by its route in src/app (slots and props).
    files: ['web/src/features/**/*.{ts,tsx}', 'web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*', '!@/features/auth'],
              message:
                'A feature imports only shared code and @/features/auth; compose features in the route (src/app/routes).',
            },
            {
              group: ['@/features/*/*'],
              message: 'Import the auth feature through its index: @/features/auth.',
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
      'tests/**',
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
