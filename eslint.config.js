// @ts-check
import tseslint from 'typescript-eslint';

/**
 * Imports point one way: lib <- db <- jobs <- modules (domains) <- http <- routes <- app.
 * Each entry forbids, in its files, imports of the layers above them.
 */
const layers = [
  {
    files: ['server/src/**'],
    regex: String.raw`^(\.\./)+(web|test|bench)/|^(\.\./)+sdk/src/(?!webhook-signature\.js$)`,
    message: 'The server imports nothing outside server/ but the shared webhook signature module.',
  },
  {
    files: ['server/src/lib/**'],
    regex: String.raw`^\.\./(db|jobs|http|modules)/|^\.\./(app|main|cli|config)\.js$`,
    message: 'lib/ is the lowest layer: it imports nothing else of the server.',
  },
  {
    files: ['server/src/db/**'],
    regex: String.raw`^\.\./(jobs|http|modules)/|^\.\./(app|main|cli)\.js$`,
    message: 'db/ may import only lib/.',
  },
  {
    files: ['server/src/jobs/**'],
    regex: String.raw`^\.\./(http|modules)/|^\.\./(app|main|cli)\.js$`,
    message: 'jobs/ may import only db/ and lib/.',
  },
  {
    files: ['server/src/modules/**'],
    ignores: ['server/src/modules/**/*.routes.ts'],
    regex: String.raw`^\.\./\.\./(http|app|main|cli)[/.]|\.routes\.js$`,
    message:
      'Domain code (services, repos, schemas, jobs) does not import http/ or routes: errors and policy are in lib/.',
  },
  {
    files: ['sdk/src/**'],
    regex: String.raw`^(\.\./)+(server|web|test)/`,
    message: 'The SDK stands alone.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'web/dist', 'coverage', 'test-results'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  // A later entry replaces an earlier one's options for the same files: each server layer
  // repeats the server-wide pattern (the first entry).
  ...layers.map(({ files, ignores, regex, message }, i) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex, message },
            ...(i > 0 && files[0].startsWith('server/')
              ? [{ regex: layers[0].regex, message: layers[0].message }]
              : []),
          ],
        },
      ],
    },
  })),
  {
    // http/ sits above the domains: it may name their types (AppDeps), never run their code.
    files: ['server/src/http/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^\.\./modules/`,
              allowTypeImports: true,
              message: 'http/ uses domain code only through what the app injects.',
            },
          ],
        },
      ],
    },
  },
);
