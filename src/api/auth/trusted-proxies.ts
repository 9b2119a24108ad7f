/**
 * Trusted reverse proxies, as the serve config lists them: addresses, CIDRs, or proxy-addr's named ranges. The
 * client address is then the first hop of X-Forwarded-For, read from the right, that is not one of them (Fastify's
 * trustProxy with a list). `true` (trust every hop) is refused: the leftmost entry is whatever the client sent, so
 * every request could pick its own address and its own rate-limit bucket.
 */
import { isIP } from 'node:net';

/** proxy-addr's names: 127.0.0.0/8 + ::1; 169.254.0.0/16 + fe80::/10; 10/8, 172.16/12, 192.168/16 + fc00::/7. */
const NAMED = ['loopback', 'linklocal', 'uniquelocal'];

export class TrustProxyError extends Error {
  override name = 'TrustProxyError';
}

export const TRUST_ALL_REFUSED =
  'true would trust every hop of X-Forwarded-For, and its leftmost entry is whatever the client sent: list the proxies in front of the gateway instead (addresses or CIDRs, e.g. ["127.0.0.1", "10.0.0.0/8"], or loopback / linklocal / uniquelocal)';

/** Why `spec` is not a proxy address, CIDR or named range; null when it is one. */
export function trustedProxyProblem(spec: string): string | null {
  if (NAMED.includes(spec)) return null;
  const slash = spec.indexOf('/');
  const addr = slash < 0 ? spec : spec.slice(0, slash);
  const family = isIP(addr);
  if (family === 0) return `"${spec}" is not an IP address or CIDR`;
  if (slash < 0) return null;
  const bits = spec.slice(slash + 1);
  const max = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return `"${spec}": the prefix length must be 0..${max}`;
  return null;
}

/** Checks a trusted-proxy list; throws TrustProxyError naming the first bad entry. */
export function parseTrustedProxies(list: readonly string[] | boolean): string[] {
  if (list === true) throw new TrustProxyError(`trust_proxy: ${TRUST_ALL_REFUSED}`);
  if (list === false) return [];
  for (const spec of list) {
    const problem = trustedProxyProblem(spec);
    if (problem) throw new TrustProxyError(`trust_proxy: ${problem}`);
  }
  return [...list];
}
