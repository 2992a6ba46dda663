import { NestedStack } from 'aws-cdk-lib';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { capitalise } from '../../shared/text.js';
import type { FunctionBinding } from '../constructs/function-binding.js';
import type { ServiceHttpApi } from '../constructs/http-api.js';
import type { Route } from '../routes.js';

/** A group of an API's operations: one function per operation, and its routes on the parent's HttpApi. */
export class RouteGroupStack extends NestedStack {
  constructor(scope: Construct & { readonly http: ServiceHttpApi }, id: string, binding: FunctionBinding, grouped: readonly Route[]) {
    super(scope, id, { description: `Satisfaction survey service: ${grouped.map((r) => r.operationId).join(', ')}` });
    for (const route of grouped) {
      const fn = binding.function(this, route.operationId, {
        handler: route.handler,
        description: `${route.method} ${route.paths[0]}: ${route.summary}`,
      });
      // One invoke permission per function, for its API, instead of one per route and path: the routes of an API
      // invoke only the functions they integrate anyway.
      const integration = new HttpLambdaIntegration(`${capitalise(route.operationId)}Integration`, fn, { scopePermissionToRoute: false });
      for (const path of route.paths)
        scope.http.addRoute(this, { path, method: route.method, integration, anonymous: route.anonymous, session: route.session });
    }
  }
}
