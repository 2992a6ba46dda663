// Lint: typescript-eslint's recommended rules, Prettier for layout, and the import rules that encode the layering.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const NO_TEST_CODE = { group: ['**/test/**'], message: 'Nothing that runs in production imports test code.' };
const NO_ADAPTERS = {
  group: ['**/adapters/*', '@aws-sdk/*', 'aws-lambda'],
  message: 'Domain code depends on its ports; adapters, the AWS SDK and Lambda types stay in shared/adapters and shared/http.',
};
const NO_OUTER_LAYERS = {
  group: ['**/functions/**', '**/infra/**'],
  message: 'shared/ is the inner layer: it never imports functions/ or infra/.',
};

/**
 * Domain modules that still reach an adapter directly. Each one leaves this list when its concept gets its ports;
 * a new file here is a review question, and any other domain file that imports an adapter fails the lint.
 */
const NOT_YET_ON_PORTS = [
  'shared/transactions/service.ts',
  'shared/transactions/queries.ts',
  'shared/transactions/consumer.ts',
  'shared/surveys/service.ts',
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', 'bench/.bundles/**', '.local-data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  { files: ['functions/**', 'infra/**'], rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE] }] } },
  {
    files: ['shared/adapters/**', 'shared/http/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE, NO_OUTER_LAYERS] }] },
  },
  {
    files: ['shared/**'],
    ignores: ['shared/adapters/**', 'shared/http/**', 'shared/wiring/**', ...NOT_YET_ON_PORTS],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE, NO_OUTER_LAYERS, NO_ADAPTERS] }] },
  },
  // The one place that plugs adapters into the domain's ports.
  {
    files: ['shared/wiring/**', ...NOT_YET_ON_PORTS],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE, NO_OUTER_LAYERS] }] },
  },
);
