/** What a workspace page answers: a page, or a redirect; either may set cookies. */
export interface WebAnswer {
  status: number;
  html?: string;
  location?: string;
  cookies?: string[];
}

/** See other: after a form post, or to send a request where it belongs. */
export const redirect = (location: string, cookies?: string[]): WebAnswer => ({ status: 303, location, ...(cookies ? { cookies } : {}) });
