import type { UserRecord } from '../access/ports.js';
import type { AnswerStore } from './ports.js';
import { regionLimit } from '../regions.js';
import type { Settings } from '../settings/settings.js';
import type { Sentiment } from '../themes/ports.js';
import { excerpt } from '../themes/redact.js';
import { distinctTexts } from '../text.js';

/** How many example comments a theme shows for each polarity, and how long each may be (characters). */
export const THEME_EXAMPLES = 2;
export const THEME_EXAMPLE_CHARACTERS = 240;
/** The entries of a theme's list read to find them: those of the other polarities are read and passed over. */
const EXAMPLES_READ = 10;

export interface ThemeExamplePorts {
  answers: Pick<AnswerStore, 'list'>;
  settings: (tenantId: number) => Promise<Pick<Settings, 'journeys' | 'regions'>>;
}

export interface ThemeExampleQuery {
  journey: string;
  from: string;
  to: string;
  region?: number | undefined;
  /** The themes and the polarity of what their examples say (`negative`: complaints; `positive`: praise). */
  wanted: readonly { theme: string; polarity: Sentiment }[];
}

/** A comment as an example shows it: what identifies a person taken out (`redact`), on one line, cut. */
export const exampleText = (comment: string): string => excerpt(comment, THEME_EXAMPLE_CHARACTERS);

/**
 * The newest example comments of each theme and polarity of the period, in the user's scope: one bounded page of the
 * theme's list (the entries the analysis writes beside the answer, `aspect=<theme>:<polarity>` as GET /public/answers
 * reads them), so nothing is stored twice: a correction that drops the theme, an erasure and the retention sweep take
 * the entry, and the comment, away as they do from the list. Keyed `<theme>:<polarity>`.
 */
export function themeExamples({ answers, settings }: ThemeExamplePorts) {
  return async (tenantId: number, query: ThemeExampleQuery, user: Promise<UserRecord>): Promise<Map<string, string[]>> => {
    const [config, { scope }] = await Promise.all([settings(tenantId), user]);
    const journey = config.journeys.find((j) => j.slug === query.journey || String(j.id) === query.journey);
    const found = new Map<string, string[]>();
    if (!journey) return found;
    const stores = regionLimit(scope === 'all' ? undefined : scope.stores, config.regions ?? [], query.region);
    await Promise.all(
      query.wanted.map(async ({ theme, polarity }) => {
        const page = await answers.list({
          tenantId,
          ...(stores ? { stores } : {}),
          from: query.from,
          to: query.to,
          journeys: [{ id: journey.id }],
          theme,
          aspect: polarity,
          hasComment: true,
          limit: EXAMPLES_READ,
          query: JSON.stringify(['theme-examples', tenantId, stores ?? 'all', theme, polarity]),
        });
        const comments = page.answers.flatMap((answer) => (answer.comment?.trim() ? [exampleText(answer.comment)] : []));
        // The same words twice (two customers, or one comment redacted alike) are one example.
        found.set(`${theme}:${polarity}`, distinctTexts(comments, THEME_EXAMPLES));
      }),
    );
    return found;
  };
}
