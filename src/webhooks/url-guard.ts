/**
 * Where webhooks may be sent. In production (SPEC §11) only `https:` URLs whose host resolves to public addresses
 * only: not loopback, private, link-local, carrier-grade NAT, multicast, reserved or documentation ranges (SSRF:
 * a partner's URL must not reach the service's own network). Checked when a subscription is registered AND on
 * every delivery, on the very addresses the connection uses (`guardedLookup`), since DNS can change in between.
 * Outside production any http(s) URL is accepted (local receivers in development and tests).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { promisify } from "node:util";
import { withTimeout } from "../shared/bounded-wait.js";

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
// IPv4-mapped addresses (::ffff:0:0/96) are judged by the IPv4 rules in isPublicAddress: BlockList would apply a
// mapped subnet to every IPv4 address.
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** True for an address a webhook may reach in production. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return !blocked.check(mapped[1]!, "ipv4");
  return !blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

export type UrlProblem = string;

/** Why `raw` cannot be a webhook URL under the policy, before any DNS; null when its form is acceptable. */
export function webhookUrlFormProblem(raw: string, requirePublicHttps: boolean): UrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a valid URL";
  }
  if (url.protocol !== "https:" && (requirePublicHttps || url.protocol !== "http:")) {
    return requirePublicHttps ? "must use https" : "must use http or https";
  }
  if (url.username || url.password) return "must not carry credentials";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (requirePublicHttps && isIP(host) !== 0 && !isPublicAddress(host)) {
    return "must not point to a loopback or private address";
  }
  if (requirePublicHttps && (host === "localhost" || host.endsWith(".localhost"))) {
    return "must not point to a loopback or private address";
  }
  return null;
}

const lookupAll = promisify(dnsLookup);

/** Resolves `raw`'s host and returns why it is refused (an address not public, or no address); null when fine. */
export async function webhookUrlProblem(
  raw: string,
  requirePublicHttps: boolean,
): Promise<UrlProblem | null> {
  const form = webhookUrlFormProblem(raw, requirePublicHttps);
  if (form || !requirePublicHttps) return form;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await withTimeout(lookupAll(host, { all: true }), 5000);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  if (addresses.some((a) => !isPublicAddress(a.address))) {
    return "must not resolve to a loopback or private address";
  }
  return null;
}

/**
 * A `lookup` for http(s).request that refuses (ECONNREFUSED-like error) any resolution with a non-public
 * address: the connection is made to the addresses checked, so a DNS answer cannot change in between.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 0);
    const list = addresses as unknown as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0) {
      const refused = Object.assign(new Error(`webhook host ${hostname} resolves to a non-public address`), {
        code: "EWEBHOOKADDRESS",
      });
      return callback(refused, "", 0);
    }
    if ((options as { all?: boolean }).all)
      return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};
