import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'media/**', '.cache/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['test/support/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'test/support runs outside VS Code too: put this in test/ext.' },
            {
              name: 'playwright-core',
              message: 'test/support runs outside a browser too: put this in test/e2e.',
            },
          ],
          patterns: [
            {
              group: ['**/ext/*', '**/e2e/*', '**/harness/*'],
              message: 'test/support depends on nothing test-kind specific.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'The core must stay vscode-free.' }] },
      ],
    },
  },
);
