import { NestedStack } from 'aws-cdk-lib';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { capitalise } from '../../shared/text.js';
import { APP_ADMIN_PATH } from '../../shared/session/paths.js';
import { ServiceHttpApi } from '../constructs/http-api.js';
import { referenceId } from '../grants.js';
import { reference, referencePaths, routes, workspaceRoutes, type ApiName, type Route } from '../routes.js';
import type { Shared } from './props.js';
import { RouteGroupStack } from './route-group.js';

/** The route groups of an API: one nested stack each, sized to stay far from a stack's limits as operations are added. */
const ROUTE_GROUPS: Record<string, string> = {
  store: 'Directory',
  employee: 'Directory',
  customer: 'Transactions',
  transaction: 'Transactions',
  transactions: 'Transactions',
  rating: 'Insights',
  answers: 'Insights',
  results: 'Insights',
  digest: 'Insights',
  themes: 'Insights',
  webhooks: 'Insights',
  chat: 'Insights',
  privacy: 'Privacy',
  cases: 'Cases',
  admin: 'Admin',
  s: 'Pages',
  q: 'Pages',
  k: 'Pages',
  d: 'Pages',
  health: 'Pages',
  brand: 'Pages',
  survey: 'Survey',
};

/**
 * The workspace's pages in two nested stacks: the tenant admins' pages (under /app/admin) apart from the others, so that
 * each keeps room for new pages (the workspace's one stack had reached 154 of its 200 resources).
 */
export const workspaceGroupOf = (route: Route): 'Workspace' | 'WorkspaceAdmin' =>
  route.paths[0]!.startsWith(`${APP_ADMIN_PATH}/`) ? 'WorkspaceAdmin' : 'Workspace';

/** The route group of a route, by the first segment of its canonical path after its prefix (`/public`, `/v2`). */
export function routeGroupOf(route: Route): string {
  const segment = route.paths[0]!.replace(/^\/(public|v2|api\/v1)(?=\/)/, '').split('/')[1] ?? '';
  return ROUTE_GROUPS[segment] ?? 'Other';
}

/** One HTTP API: the HttpApi, its stage, access logs, authorizer and reference; its operations in route-group nested stacks. */
export class ApiStack extends NestedStack {
  readonly http: ServiceHttpApi;
  readonly url: string;

  constructor(scope: Construct, id: string, shared: Shared, name: ApiName) {
    super(scope, id, { description: `Satisfaction survey service: the ${name} API` });
    const { props, binding } = shared;
    this.http = new ServiceHttpApi(
      this,
      name,
      { ...props, corsOrigins: props.corsOrigins?.[name], logRetention: props.logRetention },
      binding,
      shared.alarms,
    );
    this.url = this.http.url;

    // The API's reference: its document and /docs, written at build time and served by a function of its own.
    const referenceFunction = binding.function(this, referenceId(name), {
      handler: reference.handler,
      description: `GET /openapi.json and /docs: the ${name} API's reference`,
      memorySize: 256,
      files: [props.references[name], 'reference'],
    });
    const integration = new HttpLambdaIntegration(`${capitalise(name)}ReferenceIntegration`, referenceFunction, {
      scopePermissionToRoute: false,
    });
    for (const path of referencePaths(name)) this.http.addRoute(this, { path, method: 'GET', integration, anonymous: true });

    const groups = new Map<string, Route[]>();
    for (const route of routes.filter((r) => r.api === name))
      groups.set(routeGroupOf(route), [...(groups.get(routeGroupOf(route)) ?? []), route]);
    // The survey pages show the tenant's logo under the address survey links use; the users page's invitation links to
    // the workspace's sign-in there.
    const pages = name === 'public' ? binding.withSurveyBaseUrl(this.http.linkBaseUrl) : binding;
    for (const [group, grouped] of groups) new RouteGroupStack(this, `${group}Routes`, pages, grouped);
    if (name === 'public')
      for (const group of ['Workspace', 'WorkspaceAdmin'])
        new RouteGroupStack(
          this,
          `${group}Routes`,
          pages,
          workspaceRoutes.filter((route) => workspaceGroupOf(route) === group),
        );
  }
}
