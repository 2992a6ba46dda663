/** What a server-rendered page answers (the workspace, the sign-in): a page, or a redirect; either may set cookies. */
export interface WebAnswer {
  status: number;
  html?: string;
  location?: string;
  cookies?: string[];
  /** A 429's Retry-After: the seconds until the bound allows another try. */
  retryAfter?: number;
  /** A file instead of a page (the CSV export): its type, its name, and the headers it adds (a `Link` to go on). */
  file?: { type: string; name: string; body: string; headers?: Record<string, string> };
}

/** See other: after a form post, or to send a request where it belongs. */
export const redirect = (location: string, cookies?: string[]): WebAnswer => ({ status: 303, location, ...(cookies ? { cookies } : {}) });
