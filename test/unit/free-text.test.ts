import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CreateCustomerBody, ListCustomersQuery, UpdateCustomerBody } from '../../shared/customers/requests.js';
import { CreateEmployeeBody, ListEmployeesQuery, UpdateEmployeeBody } from '../../shared/employees/requests.js';
import { PrivacyRequestBody } from '../../shared/privacy/schema.js';
import { ResultsQuery } from '../../shared/results/schema.js';
import { CreateStoreBody, ListStoresQuery, UpdateStoreBody } from '../../shared/stores/requests.js';
import { SurveyBody } from '../../shared/surveys/answer-schema.js';
import { EvaluationsQuery, SurveyQuery } from '../../shared/surveys/schema.js';
import { TenantFile } from '../../shared/tenants/config-schema.js';
import { normaliseName, textProblem } from '../../shared/text.js';
import { LegacyTransactionBody } from '../../shared/transactions/legacy-request.js';
import { V2TransactionBody } from '../../shared/transactions/v2-request.js';

/**
 * One text rule for every free-text field a request carries: control characters (new lines only where a field
 * allows several lines), Unicode line separators, bidirectional controls and unpaired surrogates are refused, and
 * the problem names the field.
 */
type Body = Record<string, any>;
interface Field {
  schema: v.GenericSchema;
  /** A valid request with `text` in the field. */
  body: (text: string) => unknown;
  /** The field's path as the problem names it. */
  path: string;
  lines?: true;
}

const v2 = (change: (body: Body) => void) => {
  const body: Body = {
    store: { id: 1 },
    employee: { id: 1 },
    customer: { externalId: 'C-1' },
    transaction: { journeySlug: 'loja' },
  };
  change(body);
  return body;
};
const legacy = (fields: Body) => ({ store_id: 1, employee_id: 1, customer_integration: 'C-1', journey: 'loja', ...fields });
const survey = (change: (body: Body) => void) => {
  const body: Body = { transactionId: 1, attemptId: 1, journey: 'loja', classes: [], score: 9 };
  change(body);
  return body;
};

const FIELDS: Field[] = [
  { schema: CreateCustomerBody, body: (text) => ({ name: text }), path: 'name' },
  { schema: CreateCustomerBody, body: (text) => ({ client_id: 'C', gender: text }), path: 'gender' },
  { schema: UpdateCustomerBody, body: (text) => ({ name: text }), path: 'name' },
  { schema: UpdateCustomerBody, body: (text) => ({ gender: text }), path: 'gender' },
  { schema: ListCustomersQuery, body: (text) => ({ name: `ab${text}` }), path: 'name' },
  { schema: CreateStoreBody, body: (text) => ({ trade_name: text }), path: 'trade_name' },
  { schema: CreateStoreBody, body: (text) => ({ trade_name: 'Loja', company_name: text }), path: 'company_name' },
  { schema: UpdateStoreBody, body: (text) => ({ trade_name: text }), path: 'trade_name' },
  { schema: UpdateStoreBody, body: (text) => ({ company_name: text }), path: 'company_name' },
  { schema: ListStoresQuery, body: (text) => ({ name: text }), path: 'name' },
  { schema: CreateEmployeeBody, body: (text) => ({ name: text }), path: 'name' },
  { schema: UpdateEmployeeBody, body: (text) => ({ name: text }), path: 'name' },
  { schema: ListEmployeesQuery, body: (text) => ({ name: text }), path: 'name' },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.store.tradeName = text)), path: 'store.tradeName' },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.store.companyName = text)), path: 'store.companyName' },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.employee.name = text)), path: 'employee.name' },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.customer.name = text)), path: 'customer.name' },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.customer.gender = text)), path: 'customer.gender' },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.transaction.journeySlug = text)), path: 'transaction.journeySlug' },
  {
    schema: V2TransactionBody,
    body: (text) => v2((b) => (b.transaction.params = { nota: text })),
    path: 'transaction.params.nota',
    lines: true,
  },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.rating = { score: 9, comment: text })), path: 'rating.comment', lines: true },
  { schema: V2TransactionBody, body: (text) => v2((b) => (b.ratingItems = [{ class: text, score: 5 }])), path: 'ratingItems.0.class' },
  { schema: LegacyTransactionBody, body: (text) => legacy({ store_name: text }), path: 'store_name' },
  { schema: LegacyTransactionBody, body: (text) => legacy({ employee_name: text }), path: 'employee_name' },
  { schema: LegacyTransactionBody, body: (text) => legacy({ name: text }), path: 'name' },
  { schema: LegacyTransactionBody, body: (text) => legacy({ gender: text }), path: 'gender' },
  { schema: LegacyTransactionBody, body: (text) => legacy({ journey: text }), path: 'journey' },
  { schema: LegacyTransactionBody, body: (text) => legacy({ comment: text }), path: 'comment', lines: true },
  {
    schema: LegacyTransactionBody,
    body: (text) => legacy({ rating_items: [{ class: text, score: 5 }] }),
    path: 'rating_items.0.class',
  },
  { schema: SurveyBody, body: (text) => survey((b) => (b.journey = text)), path: 'journey' },
  { schema: SurveyBody, body: (text) => survey((b) => (b.comment = text)), path: 'comment', lines: true },
  { schema: SurveyBody, body: (text) => survey((b) => (b.name = text)), path: 'name' },
  { schema: SurveyBody, body: (text) => survey((b) => (b.storeId = text)), path: 'storeId' },
  { schema: SurveyBody, body: (text) => survey((b) => (b.employeeId = text)), path: 'employeeId' },
  {
    schema: SurveyBody,
    body: (text) => survey((b) => (b.classes = [{ classId: 1, label: text, score: 5, type: 'csat' }])),
    path: 'classes.0.label',
  },
  { schema: SurveyQuery, body: (text) => ({ transactionId: '1', attemptId: '1', journey: text, source: 'whatsapp' }), path: 'journey' },
  { schema: ResultsQuery, body: (text) => ({ journey: text, from: '2026-01-01', to: '2026-01-02', group_by: 'day' }), path: 'journey' },
];

/** Characters the rule refuses in any field, and new lines, refused in a one-line field. */
const REFUSED = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).filter((c) => c !== 0x0a && c !== 0x0d),
  fc.integer({ min: 0x7f, max: 0x9f }),
  fc.constantFrom(0x2028, 0x2029, 0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069),
  fc.integer({ min: 0xd800, max: 0xdfff }),
);
const NEW_LINE = fc.constantFrom('\n', '\r\n', '\r');
/** Text a person may type: letters of any script, digits, punctuation, emoji; short enough for every field. */
const TYPED = fc.string({ unit: 'grapheme', maxLength: 8 }).filter((text) => text.length <= 12 && textProblem(text) === undefined);

const issuesAt = (field: Field, text: string) => {
  const result = v.safeParse(field.schema, field.body(text));
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '');
};

describe('the free-text rule', () => {
  it('refuses a control, separator, bidi control or lone surrogate in every free-text field, naming the field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), TYPED, REFUSED, TYPED, (field, before, code, after) => {
        const text = `a${before}${String.fromCharCode(code)}${after}a`;
        expect(issuesAt(field, text), `${field.path} ${JSON.stringify(text)}`).toEqual([field.path]);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses new lines in one-line fields and keeps them where a field holds several lines', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), TYPED, NEW_LINE, TYPED, (field, before, newLine, after) => {
        const text = `a${before}${newLine}${after}a`;
        expect(issuesAt(field, text), `${field.path} ${JSON.stringify(text)}`).toEqual(field.lines ? [] : [field.path]);
      }),
      { numRuns: 1000 },
    );
  });

  it('takes any text a person may type in every free-text field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), TYPED, (field, typed) => {
        expect(issuesAt(field, `a${typed}`), `${field.path} ${JSON.stringify(typed)}`).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("holds the tenant file's names and labels to it too", () => {
    const file = { tenants: [{ name: 'Loja\u202Eevil', journeys: [], classes: [{ id: 1, label: 'Atendimento\n', type: 'csat' }] }] };
    const result = v.safeParse(TenantFile, file);
    const paths = result.success ? [] : result.issues.map((issue) => v.getDotPath(issue));
    expect(paths).toEqual(expect.arrayContaining(['tenants.0.name', 'tenants.0.classes.0.label']));
  });

  it('reaches every string a request may carry: each is under the rule or has a format of its own', () => {
    const uncovered: string[] = [];
    const seen: string[] = [];
    const walk = (schema: any, path: string): void => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.type === 'string') {
        seen.push(path);
        const pipe: any[] = schema.pipe ?? [];
        const formatted = pipe.some(
          (step) => step.freeText || ['regex', 'email', 'check', 'raw_transform', 'picklist'].includes(step.type),
        );
        // A cursor is opened (AES-256-GCM) before anything reads it: any other string is refused whole.
        if (!formatted && !path.endsWith('.cursor')) uncovered.push(path);
        return;
      }
      if (schema.entries) for (const [key, entry] of Object.entries(schema.entries)) walk(entry, path ? `${path}.${key}` : key);
      if (schema.wrapped) walk(schema.wrapped, path);
      if (schema.item) walk(schema.item, `${path}.0`);
      if (schema.options && Array.isArray(schema.options)) for (const option of schema.options) walk(option, path);
      if (schema.value) walk(schema.value, `${path}.*`);
      if (schema.pipe) for (const step of schema.pipe.slice(1)) if (step.kind === 'schema') walk(step, path);
    };
    const requests = {
      CreateCustomerBody,
      UpdateCustomerBody,
      ListCustomersQuery,
      CreateStoreBody,
      UpdateStoreBody,
      ListStoresQuery,
      CreateEmployeeBody,
      UpdateEmployeeBody,
      ListEmployeesQuery,
      V2TransactionBody,
      LegacyTransactionBody,
      SurveyBody,
      SurveyQuery,
      EvaluationsQuery,
      PrivacyRequestBody,
      ResultsQuery,
    };
    for (const [name, schema] of Object.entries(requests)) walk(schema, name);
    expect(seen).toEqual(expect.arrayContaining(['V2TransactionBody.customer.name', 'SurveyBody.comment', 'LegacyTransactionBody.gender']));
    expect(uncovered.join(' ')).toEqual('');
  });
});

describe('normaliseName', () => {
  it('normalises names for case- and accent-insensitive prefix search', () => {
    expect(normaliseName('  SÃO   José do Pará ')).toBe('sao jose do para');
    expect(normaliseName('Ação')).toBe(normaliseName('acao'));
  });
});
