import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import type { ResponseDoc } from '../shared/http/contract.js';
import { ProblemBody } from '../shared/http/contract.js';
import { USER_TOKEN_HEADER, USER_TOKEN_QUERY } from '../shared/http/handler.js';
import { API_KEY_HEADER } from '../shared/tenants/credentials.js';
import { EXAMPLE_FIXTURE, validRequests } from './examples.js';
import { routes, type ApiName } from './routes.js';

/**
 * The OpenAPI 3.1 document of one API, generated from the route table and the contract each handler exports (the
 * valibot schemas it validates with and the statuses it answers), with the tests' valid requests as examples.
 * Nothing in it is written by hand.
 */
interface Contract {
  body?: v.GenericSchema;
  path?: v.GenericSchema;
  query?: v.GenericSchema;
  anonymous?: true;
  /** An HTML page for people: its answers are text/html, its body a form. */
  page?: true;
  form?: Record<string, string>;
  responses?: Record<number, ResponseDoc>;
}

const HTML = { 'text/html': { schema: { type: 'string' } } };

type JsonSchema = Record<string, unknown>;
const FUNCTIONS = fileURLToPath(new URL('../functions/', import.meta.url));

function schemaOf(schema: v.GenericSchema): JsonSchema {
  const { $schema: _, ...json } = toJsonSchema(schema, { errorMode: 'ignore' }) as JsonSchema;
  return json;
}

function parameters(schema: v.GenericSchema | undefined, where: 'path' | 'query', examples: Record<string, unknown> = {}): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
    ...(examples[name] !== undefined ? { example: String(examples[name]) } : {}),
  }));
}

/** The example of an operation: the valid request the tests send, with the demo tenant's names. */
function exampleOf(operationId: string, template: string) {
  const request = validRequests[operationId]?.(EXAMPLE_FIXTURE);
  if (!request) return { path: {}, query: {}, body: undefined, rawBody: undefined };
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}$`);
  const values = pattern.exec(request.path)?.slice(1) ?? [];
  const { token: _, ...query } = request.query ?? {};
  return {
    path: Object.fromEntries(names.map((n, i) => [n, values[i]])),
    query,
    body: typeof request.body === 'object' ? request.body : undefined,
    rawBody: typeof request.body === 'string' ? request.body : undefined,
  };
}

/** A survey page's parameters: the link's token, and the score a GET may preselect. */
function pageParameters(path: string, method: string, example: ReturnType<typeof exampleOf>): JsonSchema[] {
  return [
    {
      name: 'token',
      in: 'path',
      required: true,
      description: "The survey link's token: the credential of the page (44 URL-safe characters)",
      schema: { type: 'string', pattern: '^[\\w-]{44}$' },
      ...((example.path as Record<string, string | undefined>).token ? { example: (example.path as Record<string, string>).token } : {}),
    },
    ...(method === 'GET' && !path.endsWith('/unsubscribe')
      ? [
          {
            name: 'score',
            in: 'query',
            required: false,
            description: 'A score to show chosen (records nothing)',
            schema: { type: 'string' },
          },
        ]
      : []),
  ];
}

const TITLES: Record<ApiName, string> = {
  public: 'Satisfaction survey service: public API',
  chatbot: 'Satisfaction survey service: chatbot API',
};

export async function openApiDocument(api: ApiName, serverUrl?: string): Promise<JsonSchema> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes.filter((r) => r.api === api)) {
    const { contract } = (await import(pathToFileURL(FUNCTIONS + route.handler).href)) as { contract: Contract };
    const responses: Record<string, unknown> = {};
    for (const [status, doc] of Object.entries(contract.responses ?? {})) {
      const type = Number(status) >= 400 ? 'application/problem+json' : 'application/json';
      responses[status] = contract.page
        ? {
            description: doc.description,
            content: HTML,
            ...(status === '303' ? { headers: { location: { schema: { type: 'string' } } } } : {}),
          }
        : { description: doc.description, ...(doc.schema ? { content: { [type]: { schema: schemaOf(doc.schema) } } } : {}) };
    }
    if (!contract.anonymous)
      responses['401'] ??= {
        description: 'Missing, unknown or revoked API key',
        content: { 'application/problem+json': { schema: schemaOf(ProblemBody) } },
      };
    responses['500'] = contract.page
      ? { description: 'Unexpected error (a generic page)', content: HTML }
      : {
          description: 'Unexpected error (generic body; quote the x-request-id header)',
          content: { 'application/problem+json': { schema: schemaOf(ProblemBody) } },
        };
    const userToken = contract.anonymous
      ? []
      : [
          {
            name: USER_TOKEN_QUERY,
            in: 'query',
            required: false,
            description: 'User token (where the route needs one; also as a header)',
            schema: { type: 'string' },
          },
          {
            name: USER_TOKEN_HEADER,
            in: 'header',
            required: false,
            description: 'User token (where the route needs one)',
            schema: { type: 'string' },
          },
        ];
    const example = exampleOf(route.operationId, route.paths[0]!);
    route.paths.forEach((path, i) => {
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = {
        operationId: i === 0 ? route.operationId : `${route.operationId}Alias${i}`,
        summary: route.summary,
        ...(i === 0 ? {} : { description: `Alias of ${route.method} ${route.paths[0]}.` }),
        tags: [
          route.paths[0]!.split('/').filter((part) => part && part !== 'public' && part !== 'v2' && part !== 'api' && part !== 'v1')[0] ??
            'service',
        ],
        parameters: [
          ...(contract.page ? pageParameters(path, route.method, example) : []),
          ...parameters(contract.path, 'path', example.path),
          ...parameters(contract.query, 'query', example.query),
          ...userToken,
        ],
        ...(contract.form
          ? {
              requestBody: {
                required: route.operationId !== 'postUnsubscribe',
                content: {
                  'application/x-www-form-urlencoded': {
                    schema: {
                      type: 'object',
                      properties: Object.fromEntries(
                        Object.entries(contract.form).map(([name, description]) => [name, { type: 'string', description }]),
                      ),
                    },
                    ...(typeof example.rawBody === 'string' ? { example: example.rawBody } : {}),
                  },
                },
              },
            }
          : {}),
        ...(contract.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: schemaOf(contract.body), ...(example.body ? { example: example.body } : {}) } },
              },
            }
          : {}),
        responses,
        security: contract.anonymous ? [] : [{ apiKey: [] }],
      };
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: TITLES[api],
      version: '1.0.0',
      description: 'Errors are RFC 9457 problem details; every response carries x-request-id.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } } },
    security: [{ apiKey: [] }],
    paths,
  };
}
