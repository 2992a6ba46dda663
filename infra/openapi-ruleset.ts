import type { RulesetDefinition } from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';

/**
 * The rulesets integrators gate an OpenAPI document on, as test/e2e/openapi.test.ts runs them on both documents:
 * Spectral's `spectral:oas` and OWASP's API security rules (`@stoplight/spectral-owasp-ruleset`), at their recommended
 * severities. What a rule finds is fixed in the document's generator (infra/openapi.ts) or the schemas it reads, or
 * answered below with its reason: a finding no answer matches fails the test, and so does an answer that no longer
 * matches anything.
 */
export const ruleset = {
  extends: [
    [oas as RulesetDefinition, 'recommended'],
    [owasp as unknown as RulesetDefinition, 'recommended'],
  ],
  // Off in `recommended`, on here: every path and query parameter says what it means (infra/openapi-parameters.ts).
  rules: { 'oas3-parameter-description': 'error' },
} as RulesetDefinition;

export interface Acknowledgment {
  rule: string;
  /** The findings it answers: their path in the document, dotted (`paths./health.get.security`). */
  at: RegExp;
  reason: string;
}

/**
 * An answer of the service, or a named shape: `acknowledgmentOf` leaves out the shapes a request body or parameter
 * refers to, which are read as requests.
 */
const ANSWERS = /^(paths\.[^.]+\.\w+\.responses\.|components\.schemas\.)/;
/** The pages anyone may open: this document, its reference and their assets, and the survey pages (a link's, a QR code's, a kiosk's). */
const REFERENCE = /^paths\.\/(openapi\.json|docs|assets\/\{asset\})\./;
const SURVEY_PAGES = /^paths\.\/(s\/\{token\}(\/unsubscribe)?|q\/\{token\}|k(\/\{token\})?|d\/\{token\}\/unsubscribe)\./;
const OPEN =
  /^paths\.\/(health|brand\/logos\/\{file\}|s\/\{token\}(\/unsubscribe)?|q\/\{token\}|k(\/\{token\})?|d\/\{token\}\/unsubscribe|openapi\.json|docs|assets\/\{asset\})\./;
const SEED_READ = /^paths\.(\/public)?\/rating\/formbuilder\/\{id\}\.get\./;

export const ACKNOWLEDGED: readonly Acknowledgment[] = [
  {
    rule: 'owasp:api4:2023-string-limit',
    at: ANSWERS,
    reason:
      "API4 bounds what a client sends. An answer's strings are the service's own output, each stored from a request whose bounds the document states; a maxLength on the way out would be a promise no code checks.",
  },
  {
    rule: 'owasp:api4:2023-array-limit',
    at: ANSWERS,
    reason:
      "As for strings: an answer's lists are the service's output (a list operation's page is bounded by its `limit` parameter, whose maximum the document states).",
  },
  {
    rule: 'owasp:api4:2023-string-limit',
    at: SURVEY_PAGES,
    reason:
      "A survey page's query and form are read by the page, which answers a person with the form again (400) for a score off the scale or a comment over 1,000 characters, and shows no score chosen for a query it cannot read; the whole form is bounded at 16 KB (413).",
  },
  {
    rule: 'owasp:api4:2023-string-limit',
    at: /^paths\.\/public\/admin\/brand\/logos\.post\.requestBody\./,
    reason: "A logo's bytes: bounded in bytes (over 200 KB is a 400), which a maxLength, counting characters, cannot state.",
  },
  {
    rule: 'owasp:api4:2023-string-limit',
    at: /^paths\.\/assets\/\{asset\}\.get\.parameters\./,
    reason:
      "A file name looked up among the reference's few files (shared/http/reference-data.ts): any other name is a 404, read no further.",
  },
  {
    rule: 'owasp:api4:2023-string-limit',
    at: /^paths\.(\/public\/admin\/config\.put|\/public\/cases\/\{id\}\.patch)\.parameters\.\d+\.schema$/,
    reason: 'If-Match is compared whole with the current ETag (a quoted version number) or `*`: any other value is a 412, read no further.',
  },
  {
    rule: 'owasp:api4:2023-string-limit',
    at: SEED_READ,
    reason: "The user token the seed's clients send to the flexible-form read is never read there: no bound is checked, so none is stated.",
  },
  {
    rule: 'owasp:api4:2023-string-restricted',
    at: /./,
    reason:
      "Names, questions, templates, comments and notes are text people write, the seed's integration ids (client_id, externalId) are the tenant's own free text, and phone numbers and time zones are checked by what reads them (libphonenumber, Intl), not by a regular expression: none has a pattern that would be true. Dates, e-mails, cpf and the links' tokens carry theirs.",
  },
  {
    rule: 'owasp:api4:2023-rate-limit',
    at: /./,
    reason:
      "No answer carries RateLimit headers: the limits are API Gateway's stage throttling (infra/constructs/http-api.ts), whose 429 every operation documents. Headers no answer sends would be false.",
  },
  {
    rule: 'owasp:api1:2023-no-numeric-ids',
    at: /./,
    reason:
      "The seed's interface names stores, customers, employees, transactions and cases by integer ids, and its clients store them. Guessing one gains nothing: every read is keyed by the tenant the API key names (shared/keys.ts), so another tenant's id finds nothing (test/reliability/isolation.test.ts).",
  },
  {
    rule: 'owasp:api5:2023-admin-security-unique',
    at: /^paths\.\/public\/admin\//,
    reason:
      "An admin key also calls the public operations, and an admin user's token is the same header as any user's: the requirements are the same credentials. What differs is what the handler then checks (the key's scope, or the user's role and stores), answering 403 to anyone else.",
  },
  {
    rule: 'owasp:api2:2023-no-credentials-in-url',
    at: SEED_READ,
    reason:
      "The seed's clients send the user token to the flexible-form read as they do to its list: taken there (and ignored, the read needs none), as everywhere else it is refused (400).",
  },
  {
    rule: 'owasp:api2:2023-no-credentials-in-url',
    at: SURVEY_PAGES,
    reason:
      'A survey link sent by e-mail, SMS or WhatsApp opens a page with no key: its token is the credential, bound to one survey attempt and expiring (shared/surveys/link.ts), and never logged (the functions leave it out, the access logs name the route, not the path). Pages answer with Referrer-Policy: no-referrer.',
  },
  {
    rule: 'owasp:api2:2023-no-api-keys-in-url',
    at: /^components\.securitySchemes\.userTokenQuery\./,
    reason:
      'The seed names the `token` query parameter on the lists of customers and flexible-form ratings: those two keep it for its clients; every other operation refuses a token in its URL (400).',
  },
  {
    rule: 'owasp:api2:2023-read-restricted',
    at: OPEN,
    reason:
      "Open by design: health for monitors, a tenant's logo by its content hash (what its e-mails show), the survey pages (the link's token is their credential), and this document and its reference.",
  },
  {
    rule: 'owasp:api2:2023-write-restricted',
    at: SURVEY_PAGES,
    reason: "A customer's answer and opt-out are posted from the survey page: the link's token in the path is the credential.",
  },
  {
    rule: 'owasp:api8:2023-define-error-responses-401',
    at: OPEN,
    reason: 'An operation that takes no credential never answers 401.',
  },
  {
    rule: 'owasp:api8:2023-define-error-validation',
    at: new RegExp(`${REFERENCE.source}|${SURVEY_PAGES.source}`),
    reason:
      "Pages and files that take nothing but their path: an unknown one is 404 (a link no longer live 410), never a 400. (The survey form's post does answer 400.)",
  },
  {
    rule: 'owasp:api8:2023-define-cors-origin',
    at: /\.headers$/,
    reason:
      "Access-Control-Allow-Origin is API Gateway's, sent to the origins the stack's CORS configuration allows (infra/constructs/http-api.ts) and only to them: not a header of the operation's answer.",
  },
  ...[
    'owasp:api8:2023-define-error-responses-401',
    'owasp:api8:2023-define-error-responses-500',
    'owasp:api4:2023-rate-limit-responses-429',
    'owasp:api8:2023-define-error-validation',
  ].map((rule) => ({
    rule,
    at: /^components\.schemas\.(ResultRow|Digest\.properties\.journeys\.items(\.properties\.ranking\.properties\.\w+\.items)?)\.properties\.responses$/,
    reason: "A result row's or a digest's field named `responses` (how many answered), which the rule takes for an operation's answers.",
  })),
];

/** The answer to a finding, if any: `requestShapes`, the named schemas requests refer to (`requestShapesOf`). */
export function acknowledgmentOf(rule: string, path: string, requestShapes: ReadonlySet<string>): Acknowledgment | undefined {
  const shape = /^components\.schemas\.([^.]+)/.exec(path)?.[1];
  const request = shape !== undefined && requestShapes.has(shape);
  return ACKNOWLEDGED.find((a) => a.rule === rule && a.at.test(path) && !(request && a.at === ANSWERS));
}

/** The named schemas a request body or parameter refers to, directly or through another named schema. */
export function requestShapesOf(document: { paths: object; components?: { schemas?: Record<string, unknown> } }): Set<string> {
  const shapes = new Set<string>();
  const refer = (node: unknown): void => {
    for (const [, name] of JSON.stringify(node ?? null).matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      if (!shapes.has(name!)) {
        shapes.add(name!);
        refer(document.components?.schemas?.[name!]);
      }
  };
  for (const operations of Object.values(document.paths) as Record<string, { requestBody?: unknown; parameters?: unknown }>[])
    for (const operation of Object.values(operations)) refer([operation.requestBody, operation.parameters]);
  return shapes;
}
