import { signedInPage } from '../../shared/http/workspace.js';
import { APP_HOME } from '../../shared/session/paths.js';
import { redirect } from '../../shared/web-answer.js';

export const contract = { page: true, responses: { 303: { description: "The workspace's first section" } } } as const;

export const handler = signedInPage(async ({ base }) => redirect(`${base}${APP_HOME}`));
