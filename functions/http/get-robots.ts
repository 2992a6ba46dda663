import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ROBOTS_TXT } from '../../shared/http/robots.js';

export const contract = { anonymous: true, page: true, responses: { 200: { description: 'robots.txt (text/plain)' } } } as const;

/** GET /robots.txt: crawlers keep out of the workspace and the survey links. */
export const handler = async (): Promise<APIGatewayProxyStructuredResultV2> => ({
  statusCode: 200,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
  body: ROBOTS_TXT,
});
