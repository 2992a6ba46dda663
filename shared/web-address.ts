import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a deployed function may call on a tenant's say (its chatbot and event webhooks). On AWS a
 * function's own machine is the Lambda Runtime API (127.0.0.1:9001), the link-local range holds the instance
 * metadata and container credential endpoints (169.254.169.254, 169.254.170.2), and private ranges reach the
 * operator's network: a tenant may name none of them. The local stack may (its outbox listens on localhost).
 */

/** Every range that is not a public unicast host, IPv4-mapped IPv6 included (BlockList matches those as IPv4). */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local machine
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: instance metadata, ECS credentials
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.88.99.0', 24], // the 6to4 relay anycast: traffic to it is relayed to an IPv4 address inside
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): ::ffff:0:7f00:1 is 127.0.0.1
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: an IPv4 server and client inside
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['fc00::', 7], // unique local (fd00:ec2::254 is the instance metadata service)
  ['fe80::', 10],
  ['fec0::', 10], // the deprecated site-local
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IP address (v4 or v6, without brackets) a function may connect to on a tenant's say. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A URL's host without the brackets of an IPv6 literal or a name's trailing dot. */
const bareHost = (hostname: string) =>
  hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();

/** localhost and its subdomains, and a loopback address: where http is taken on a local deployment. */
function isLoopback(host: string): boolean {
  const family = isIP(host);
  if (family === 0) return host === 'localhost' || host.endsWith('.localhost');
  return LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
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
