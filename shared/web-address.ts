import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a deployed function may call on a tenant's say (its chatbot and event webhooks). On AWS a
 * function's own machine is the Lambda Runtime API (127.0.0.1:9001), the link-local range holds the instance
 * metadata and container credential endpoints (169.254.169.254, 169.254.170.2), and private ranges reach the
 * operator's network: a tenant may name none of them. The local stack may (its outbox listens on localhost).
 */

/**
 * The special-purpose ranges come from ipaddr.js, which follows IANA's registries (documentation, benchmarking,
 * Teredo, NAT64, AS112, ...) better than a list kept here did. It misses one: the deprecated IPv4-compatible
 * ::a.b.c.d, which some stacks still route to the IPv4 address inside.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The range ipaddr.js names an address's (an IPv4-mapped IPv6 address as its IPv4 one), or undefined. */
function rangeOf(address: string): string | undefined {
  if (isIP(address) === 0) return undefined;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === 'unicast' && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : range;
}

/** An IP address (v4 or v6, without brackets) a function may connect to on a tenant's say: a public unicast host. */
export function isPublicAddress(address: string): boolean {
  return rangeOf(address) === 'unicast';
}

/** A URL's host without the brackets of an IPv6 literal or a name's trailing dot. */
const bareHost = (hostname: string) =>
  hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();

/** localhost and its subdomains, and a loopback address: where http is taken on a local deployment. */
function isLoopback(host: string): boolean {
  if (isIP(host) === 0) return host === 'localhost' || host.endsWith('.localhost');
  return rangeOf(host) === 'loopback';
}

/**
 * Why a tenant's webhook URL cannot be used on this deployment, or undefined. Judged by the parsed address (WHATWG
 * URL has already turned 0x7f.1 or 2130706433 into 127.0.0.1). A name is checked again when it is called, by the
 * addresses it resolves to then (shared/adapters/public-post.ts): this refuses what is wrong whatever DNS says.
 */
export function webAddressProblem(url: URL, local: boolean): string | undefined {
  const host = bareHost(url.hostname);
  if (local) {
    if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(host))) return undefined;
    return 'must be https (http only for localhost on a local deployment)';
  }
  if (url.protocol !== 'https:') return 'must be https on a public host (http only on a local deployment)';
  if (isIP(host) ? !isPublicAddress(host) : !host.includes('.') || host.endsWith('.localhost'))
    return 'must be https on a public host (not a local name, nor a loopback, link-local or private address)';
  return undefined;
}
