import { workspacePage } from '../../shared/http/workspace.js';
import { showSignIn } from '../../shared/workspace/sign-in-page.js';

export const contract = { anonymous: true, page: true, responses: { 200: { description: 'The sign-in form (HTML)' } } } as const;

export const handler = workspacePage(async (input) => showSignIn(input));
