import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isLocalDeployment } from '../config.js';
import { isPublicAddress } from '../web-address.js';

/** A tenant's URL whose host is, or resolves to, an address a deployed function must not call (shared/web-address.ts). */
export class NotPublicAddress extends Error {
  override name = 'NotPublicAddress';
  constructor() {
    super('The webhook host is not a public address.');
  }
}

/**
 * Resolves a name as the connection would, and answers only if every address it has is public: the socket connects
 * to the address checked here, so a name that resolves elsewhere a second later (DNS rebinding) changes nothing.
 */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (!addresses.length || !addresses.every((a) => isPublicAddress(a.address))) return callback(new NotPublicAddress(), '', 0);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * POSTs to a tenant's webhook and answers its status, without reading its body or following a redirect. Off the local
 * stack, a host that is or resolves to a loopback, link-local or private address is never connected to: it fails with
 * NotPublicAddress (the configuration refuses such URLs; this covers names, and URLs stored before it did).
 */
export function postToWebhook(
  url: string,
  { body, headers, timeoutMs }: { body: string; headers: Record<string, string>; timeoutMs: number },
): Promise<number> {
  const target = new URL(url);
  const local = isLocalDeployment();
  const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
  // A literal address is connected to without a lookup: it is checked here.
  if (!local && isIP(literal) && !isPublicAddress(literal)) return Promise.reject(new NotPublicAddress());
  const send = target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
  if (!send) return Promise.reject(new NotPublicAddress());
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, ...(local ? {} : { lookup: publicLookup }) },
      (response) => {
        clearTimeout(timer);
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    // Named as fetch names its timeout, which the callers tell from an unreachable host.
    const timer = setTimeout(() => request.destroy(new DOMException('The webhook did not answer in time.', 'TimeoutError')), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
