import { describe, expect, it } from 'vitest';
import { repeatedEnums, withNamedEnums } from '../../infra/openapi-enums.js';

const LOCALE = { type: 'string', enum: ['pt-BR', 'es', 'en'] };
const STATUS = { type: 'string', enum: ['active', 'inactive'] };

/** A document as infra/openapi.ts builds one: the locale set in a component, a body and a query; a status set twice. */
const document = () => ({
  openapi: '3.1.0',
  components: {
    schemas: {
      Customer: {
        type: 'object',
        properties: { locale: { ...LOCALE, description: "The customer's language" }, status: STATUS },
        examples: [{ locale: 'es', status: 'active' }],
      },
    },
  },
  paths: {
    '/customers': {
      get: {
        parameters: [{ name: 'locale', in: 'query', schema: { ...LOCALE, default: 'pt-BR' } }],
        responses: {
          200: { content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Customer' } } } } },
        },
      },
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  customer: {
                    type: 'object',
                    properties: { locale: { anyOf: [{ ...LOCALE, enum: ['en', 'es', 'pt-BR'] }, { type: 'null' }] } },
                  },
                  status: { ...STATUS },
                  channel: { type: 'string', enum: ['sms', 'email'] },
                  // A field named enum is a field, not a value set.
                  properties: { type: 'object', properties: { enum: { type: 'string' } } },
                },
              },
              example: { status: 'active', channel: 'sms', enum: ['a', 'b'] },
            },
          },
        },
      },
    },
  },
});

describe('the value sets of the OpenAPI document, named once', () => {
  it('finds the sets written inline more than once, whatever their order, and never in examples', () => {
    expect(repeatedEnums(document())).toEqual({ 'en|es|pt-BR': 3, 'active|inactive': 2 });
  });

  it('names each repeated set once, by its field, and refers to it where it was written with what that place said', () => {
    const named = withNamedEnums(document());
    expect(repeatedEnums(named)).toEqual({});
    expect(named.components.schemas).toMatchObject({ Locale: LOCALE, ActiveStatus: STATUS });
    const customer = named.components.schemas.Customer;
    expect(customer.properties.locale).toEqual({ $ref: '#/components/schemas/Locale', description: "The customer's language" });
    expect(customer.properties.status).toEqual({ $ref: '#/components/schemas/ActiveStatus' });
    expect(named.paths['/customers'].get.parameters[0]!.schema).toEqual({ $ref: '#/components/schemas/Locale', default: 'pt-BR' });
    const body = named.paths['/customers'].post.requestBody.content['application/json'];
    expect(body.schema.properties.customer.properties.locale.anyOf).toEqual([{ $ref: '#/components/schemas/Locale' }, { type: 'null' }]);
    // A set written once stays where it is; the example is untouched.
    expect(body.schema.properties.channel).toEqual({ type: 'string', enum: ['sms', 'email'] });
    expect(body.example).toEqual(document().paths['/customers'].post.requestBody.content['application/json'].example);
  });

  it('takes a name given for a set, and refuses to give two sets one name', () => {
    expect(withNamedEnums(document(), { 'active|inactive': 'ActiveStatus' }).components.schemas).toHaveProperty('ActiveStatus');
    const clash = document();
    clash.components.schemas.Customer.properties.status = { type: 'string', enum: ['pt-BR', 'es', 'en', 'fr'] };
    (clash.paths['/customers'].post.requestBody.content['application/json'].schema.properties as Record<string, unknown>).status = {
      type: 'string',
      enum: ['en', 'fr', 'es', 'pt-BR'],
    };
    expect(() => withNamedEnums(clash, { 'en|es|fr|pt-BR': 'Locale' })).toThrow(/would both be named Locale/);
  });
});
