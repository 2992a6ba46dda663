import { FAVICON_LINK } from '../shared/favicon.js';

/**
 * The /docs reference, rendered at build time from the OpenAPI document into plain HTML: every operation, its
 * parameters, body and answers, and the named shapes, readable without JavaScript (a phone on a slow network gets it
 * in one small compressed response). Swagger UI, 1.7 MB of script, is one link away for trying requests.
 */
type Json = Record<string, any>;

const escape = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const anchor = (text: string) => text.replace(/[^\w-]+/g, '-');

/** A schema in a few words: its type, bounds and values; a named shape links to its section. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    const defaulted = schema.default !== undefined ? ` <small>(default ${escape(JSON.stringify(schema.default))})</small>` : '';
    return `<a href="#schema-${anchor(name)}">${escape(name)}</a>${defaulted}`;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return (alternatives as Json[]).map(typeOf).join(' | ');
  if (schema.const !== undefined) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  if (schema.enum) return (schema.enum as unknown[]).map((value) => `<code>${escape(JSON.stringify(value))}</code>`).join(' | ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  const types = ([] as string[]).concat(schema.type ?? 'any');
  const bounds = [
    schema.minimum !== undefined && schema.maximum !== undefined ? `${schema.minimum}–${schema.maximum}` : '',
    schema.minLength !== undefined || schema.maxLength !== undefined
      ? `${schema.minLength ?? 0}–${schema.maxLength ?? '…'} characters`
      : '',
    schema.format ?? '',
    schema.pattern ? `<code>${escape(schema.pattern)}</code>` : '',
    schema.default !== undefined ? `default ${escape(JSON.stringify(schema.default))}` : '',
  ].filter(Boolean);
  return `${escape(types.join(' | '))}${bounds.length ? ` <small>(${bounds.join(', ')})</small>` : ''}`;
}

/**
 * A table that scrolls sideways on a phone is a tab stop, named, so that a keyboard can scroll it (axe's
 * scrollable-region-focusable).
 */
const table = (label: string, head: string[], rows: string) =>
  `<table tabindex="0" aria-label="${escape(label)}"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`;

/** An object's fields as a table, one level deep (nested objects say "object" and their fields' names). */
function fields(label: string, schema: Json | undefined): string {
  if (!schema || schema.$ref || schema.type !== 'object' || !schema.properties) return `<p>${typeOf(schema)}</p>`;
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => {
    const nested = property.type === 'object' && property.properties ? `object {${Object.keys(property.properties).join(', ')}}` : '';
    return `<tr><td><code>${escape(name)}</code>${required.has(name) ? '' : ' <small>optional</small>'}</td><td>${
      nested ? escape(nested) : typeOf(property)
    }</td></tr>`;
  });
  return table(label, ['field', 'type'], rows.join(''));
}

function operationHtml(path: string, method: string, op: Json): string {
  const head = `<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escape(path)}</code></h3>`;
  const attributes = `id="${escape(op.operationId)}" data-path="${escape(path)}" data-method="${method}"`;
  if (op['x-alias-of'])
    return `<section class="op alias" ${attributes}>${head}<p>Alias of <a href="#${escape(
      anchor(op.operationId.replace(/Alias\d+$/, '')),
    )}">${method.toUpperCase()} ${escape(op['x-alias-of'])}</a>.</p></section>`;
  const name = `${method.toUpperCase()} ${path}`;
  const parameters = (op.parameters ?? []) as Json[];
  const body = op.requestBody?.content as Record<string, Json> | undefined;
  const answers = Object.entries(op.responses as Record<string, Json>).map(
    ([status, answer]) =>
      `<tr><td>${escape(status)}</td><td>${escape(answer.description)}</td><td>${Object.entries(
        (answer.content ?? {}) as Record<string, Json>,
      )
        .map(([media, content]) => `${escape(media)}: ${typeOf(content.schema)}`)
        .join('<br>')}</td></tr>`,
  );
  return `<section class="op" ${attributes}>${head}<p>${escape(op.description)}</p>${
    parameters.length
      ? `<h4>Parameters</h4>${table(
          `Parameters of ${name}`,
          ['name', 'in', 'type'],
          parameters
            .map(
              (p) =>
                `<tr><td><code>${escape(p.name)}</code>${p.required ? '' : ' <small>optional</small>'}</td><td>${escape(p.in)}</td><td>${typeOf(
                  p.schema,
                )}${p.description ? `<br><small>${escape(p.description)}</small>` : ''}</td></tr>`,
            )
            .join(''),
        )}`
      : ''
  }${
    body
      ? Object.entries(body)
          .map(([media, content]) => `<h4>Body <small>${escape(media)}</small></h4>${fields(`Body of ${name}`, content.schema)}`)
          .join('')
      : ''
  }<details><summary>Answers</summary>${table(`Answers of ${name}`, ['status', 'when', 'body'], answers.join(''))}</details></section>`;
}

export function docsPage(document: Json): string {
  const operations = Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  const tags = (document.tags as { name: string; description: string }[]).map((tag) => {
    const ops = operations.filter(({ op }) => op.tags?.[0] === tag.name);
    return `<section class="tag"><h2 id="tag-${anchor(tag.name)}">${escape(tag.name)}</h2><p>${escape(tag.description)}</p>${ops
      .map(({ path, method, op }) => operationHtml(path, method, op))
      .join('')}</section>`;
  });
  const schemas = Object.entries((document.components?.schemas ?? {}) as Record<string, Json>).map(
    ([name, schema]) =>
      `<section class="schema"><h3 id="schema-${anchor(name)}">${escape(name)}</h3>${fields(`Fields of ${name}`, schema)}</section>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)}</title><meta name="description" content="${escape(
    `${document.info.title}: every operation with its parameters, body and answers, and the shapes they use.`,
  )}">${FAVICON_LINK}<link rel="stylesheet" href="assets/docs.css"></head>
<body><header><h1>${escape(document.info.title)}</h1><p>${escape(document.info.description)}</p>
<p><a href="openapi.json">The OpenAPI document</a> · <a href="assets/console.html">Try the requests in Swagger UI</a></p>
<nav aria-label="Resources"><ul>${(document.tags as { name: string }[])
    .map((tag) => `<li><a href="#tag-${anchor(tag.name)}">${escape(tag.name)}</a></li>`)
    .join('')}<li><a href="#schemas">shapes</a></li></ul></nav></header>
<main id="reference">${tags.join('')}<section><h2 id="schemas">Shapes</h2>${schemas.join('')}</section></main></body></html>
`;
}
