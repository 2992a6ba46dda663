/**
 * The paths of a survey link's pages, as data: the route table, the links the senders write, the pages' own
 * links and the local stack all read them from here. The link's token is the credential.
 */
export const SURVEY_PREFIX = '/s/';
const UNSUBSCRIBE_SUFFIX = '/unsubscribe';

/** The survey page of a link (GET the form, POST the answer). */
export const SURVEY_PAGE_PATH = `${SURVEY_PREFIX}{token}`;
/** Its opt-out page (GET asks to confirm, POST opts out: the button, or RFC 8058 one-click). */
export const UNSUBSCRIBE_PAGE_PATH = `${SURVEY_PAGE_PATH}${UNSUBSCRIBE_SUFFIX}`;

/** The survey page of one token. */
export const surveyPagePath = (token: string) => `${SURVEY_PREFIX}${token}`;
/** The opt-out page beside a survey page (a path, or a full link). */
export const unsubscribeOf = (surveyPage: string) => `${surveyPage}${UNSUBSCRIBE_SUFFIX}`;
/** Whether a route path is an opt-out page. */
export const isUnsubscribePath = (path: string) => path.endsWith(UNSUBSCRIBE_SUFFIX);
/** The token of a survey link (full URL or path), or undefined when it is not one. */
export const tokenOfSurveyLink = (link: string): string | undefined => link.split(SURVEY_PREFIX)[1];
