import { sealer } from '../sealed.js';

/** How long a browser's answer to one code holds it from answering that code again. */
export const ANSWERED_HOURS = 12;

/** The cookie that marks a browser's answer to one code: sealed (neither made up nor moved to another code). */
const answeredCookieName = (tokenHash: string) => `qa_${tokenHash}`;

export function answeredRecently({
  secret,
  tokenHash,
  cookies,
  now,
}: {
  secret: string;
  tokenHash: string;
  cookies: readonly string[];
  now: Date;
}): boolean {
  const name = `${answeredCookieName(tokenHash)}=`;
  const value = cookies.find((c) => c.startsWith(name))?.slice(name.length);
  const opened = value ? sealer(() => secret, 'qr-answered').open(value, tokenHash) : undefined;
  return typeof opened === 'number' && opened > now.getTime();
}

export function answeredCookie(secret: string, tokenHash: string, now: Date): string {
  const seconds = ANSWERED_HOURS * 3600;
  const value = sealer(() => secret, 'qr-answered').seal(now.getTime() + seconds * 1000, tokenHash);
  // No Path: the default is the page's own directory (`/q` under any stage).
  return `${answeredCookieName(tokenHash)}=${value}; Max-Age=${seconds}; HttpOnly; Secure; SameSite=Lax`;
}
