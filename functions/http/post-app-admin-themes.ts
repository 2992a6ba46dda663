import { signedInPage } from '../../shared/http/workspace.js';
import { adminThemesForm } from '../../shared/adapters/wiring/themes.js';

export const contract = {
  page: true,
  form: {
    etag: 'The configuration version the form was read at (its ETag)',
    action: "'delete' a theme (slug), 'keyword' (add phrase, of language, to theme), or absent: save the theme described",
    original: 'The slug of the theme being edited; absent, a new theme',
    slug: "The theme's slug (with action=delete, the theme deleted)",
    'name.pt-BR': 'Its name in pt-BR (also name.es, name.en)',
    'keywords.pt-BR': 'Its pt-BR keywords, one a line (also keywords.es, keywords.en)',
    'exclude.pt-BR':
      'Its pt-BR exclusions, one a line: words or phrases that cancel its keywords in their sentence (also exclude.es, exclude.en)',
    theme: 'With action=keyword: the slug of the theme the phrase joins',
    phrase: "With action=keyword: the suggestion's phrase",
    language: "With action=keyword: the phrase's language (pt, es, en)",
  },
  responses: {
    303: { description: 'Saved: back to the themes, saying so' },
    400: { description: 'The form again, each wrong field named next to its input; nothing saved' },
    403: { description: 'Not a tenant admin, or posted from another site' },
    409: { description: 'The configuration changed since the form was read: the form again with what was typed; nothing saved' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminThemesForm.saveTheme({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
