import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { APP_RESULTS_PATH } from '../../shared/session/paths.js';

export const contract = {
  anonymous: true,
  page: true,
  responses: { 301: { description: 'The results page moved to /app/results' } },
} as const;

/** The results page moved into the workspace, behind sign-in; old bookmarks follow it. */
export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const base = event.requestContext.stage && event.requestContext.stage !== '$default' ? `/${event.requestContext.stage}` : '';
  return { statusCode: 301, headers: { location: `${base}${APP_RESULTS_PATH}`, 'cache-control': 'public, max-age=86400' }, body: '' };
};
