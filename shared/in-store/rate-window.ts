import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * What the per-address bound counts of an address: an IPv4 address whole, an IPv6 address by its /64 (one subscriber's
 * network, where a device picks any of 2^64 addresses); an IPv4-mapped IPv6 address as its IPv4 one.
 */
export function addressNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/** The address as the per-address bound keys it: its network (`addressNetwork`), hashed with the tenant. */
export const addressHash = (tenantId: number, address: string) =>
  createHash('sha256')
    .update(`${tenantId}\u0000${addressNetwork(address)}`)
    .digest('base64url')
    .slice(0, 22);
