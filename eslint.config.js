// Lint: typescript-eslint's recommended rules, Prettier for layout, and the import rules that encode the layering.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NO_TEST_CODE = { group: ['**/test/**'], message: 'Nothing that runs in production imports test code.' };
const NO_ADAPTERS = {
  group: ['**/adapters/*', '**/adapters/**', '@aws-sdk/*', 'aws-lambda'],
  message:
    'Domain code depends on its ports; adapters, the AWS SDK and Lambda types stay in shared/adapters, shared/http and shared/queue, and shared/adapters/wiring plugs them in.',
};
const NO_OUTER_LAYERS = {
  group: ['**/functions/**', '**/infra/**'],
  message: 'shared/ is the inner layer: it never imports functions/ or infra/.',
};

const NO_TRANSACTIONS = {
  group: ['**/transactions/*', '**/transactions/**'],
  message:
    'Surveys sit below the transaction rules: they read transactions through shared/transaction-record.ts, and the rules import the survey plan (surveys/plan.ts), never the other way.',
};
const NO_TENANTS = {
  group: ['**/tenants/*', '**/tenants/**'],
  message:
    'The concepts sit below the tenant configuration: each owns its records, its port and the shape it reads of the settings, which shared/tenants/ composes (its schema, TenantRepository), never the other way.',
};
/** The folders below shared/tenants/: the configuration composes them. */
const BELOW_TENANTS = ['shared/access/**', 'shared/brand/**', 'shared/events/**', 'shared/audit/**', 'shared/fields.ts'];
const NO_BATCH_PLUMBING = {
  group: ['@aws-lambda-powertools/batch'],
  message:
    'A consumer is a few lines over queueHandler (shared/queue/handler.ts), which owns batch processing, counts, the log line and the metrics.',
};
const USER_PLUMBING_MESSAGE =
  "A handler does not check keys or tokens: its contract declares the user it needs (`user`) and the HTTP wrapper resolves it (the input's `user()`).";
const NO_USER_PLUMBING = [
  { group: ['**/tenants/service*'], message: USER_PLUMBING_MESSAGE },
  { group: ['**/wiring/access*'], importNames: ['tenantAccess'], message: USER_PLUMBING_MESSAGE },
  { group: ['**/wiring/tenants*'], importNames: ['tenantService'], message: USER_PLUMBING_MESSAGE },
];
const TENANT_ADMINISTRATION_MESSAGE =
  "The HTTP wrapper and the authorizer check keys and tokens only (shared/access/tenant-access.ts, plugged in by wiring/access.ts's tenantAccess): every function behind the API bundles them, and none needs the tenant administration.";
const NO_TENANT_ADMINISTRATION = [
  { group: ['**/tenants/service*', '**/tenant-repository*'], message: TENANT_ADMINISTRATION_MESSAGE },
  { group: ['**/wiring/tenants*'], importNames: ['tenantService'], message: TENANT_ADMINISTRATION_MESSAGE },
];
const DOMAIN = [NO_TEST_CODE, NO_OUTER_LAYERS, NO_ADAPTERS];

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
  { files: ['infra/**'], rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE] }] } },
  {
    files: ['functions/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE, NO_BATCH_PLUMBING, ...NO_USER_PLUMBING] }],
      // A handler is an adapter: parse, call one domain function, answer. Schemas and rules live beside their concept.
      'max-lines': ['error', { max: 40 }],
    },
  },
  {
    files: ['shared/adapters/**', 'shared/http/**', 'shared/queue/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE, NO_OUTER_LAYERS] }] },
  },
  {
    files: ['shared/**'],
    ignores: ['shared/adapters/**', 'shared/http/**', 'shared/queue/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE, NO_OUTER_LAYERS, NO_ADAPTERS] }] },
  },
  {
    files: ['shared/http/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_TEST_CODE, NO_OUTER_LAYERS, ...NO_TENANT_ADMINISTRATION] }] },
  },
  { files: ['shared/surveys/**'], rules: { 'no-restricted-imports': ['error', { patterns: [...DOMAIN, NO_TRANSACTIONS] }] } },
  { files: BELOW_TENANTS, rules: { 'no-restricted-imports': ['error', { patterns: [...DOMAIN, NO_TENANTS] }] } },
  // Issue 61: a function in shared/ takes at most 3 positional parameters; more go in a record whose field names say what
  // each is. test/unit/max-params.test.ts holds every file of shared/ to it, an eslint-disable comment included.
  { files: ['shared/**/*.ts'], rules: { '@typescript-eslint/max-params': ['error', { max: 3 }] } },
  {
    // Pages escape by construction: only shared/html.ts escapes, through its html template.
    files: ['**/*.ts'],
    ignores: ['shared/html.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.name='escapeHtml'], VariableDeclarator[id.name='escapeHtml'], FunctionDeclaration[id.name='escapeHtml']",
          message: 'Write HTML with the html template of shared/html.ts, which escapes every value; escapeHtml is its own.',
        },
      ],
    },
  },
  // The pages' scripts run in the browser, as plain scripts beside the Chart.js bundle.
  { files: ['infra/pages/**/*.js'], languageOptions: { sourceType: 'script', globals: { ...globals.browser, Chart: 'readonly' } } },
);
