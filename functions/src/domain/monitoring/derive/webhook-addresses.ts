// Where a webhook may post (R10 and R15). Strict by default, on every host: a receiver must be
// a public unicast address — never loopback, a private or shared network, link-local (the instance
// metadata), documentation, benchmarking or multicast space, and no IPv6 address outside the global
// unicast 2000::/3 or inside its special 2001::/23 (Teredo), 2001:db8::/32 and 2002::/16 (6to4): so
// every IPv4-embedded IPv6 form (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96 and
// 64:ff9b:1::/48, 6to4, Teredo, SIIT ::ffff:0:0:0/96) is refused whatever the IPv4 inside. The local
// host's operator may name the receivers inside the mine's own network (WEBHOOK_ALLOWED_RECEIVERS:
// networks in CIDR, single addresses or host names; docs/operations.md), and those are allowed too.
// A name is checked by the addresses it resolves to when it is posted to, and the connection goes to
// the address checked (webhooks.ts), so no second lookup can answer another.
import { isIP } from "node:net";

interface Network {
  bytes: Uint8Array;
  prefix: number;
}

/** The receivers the operator allowed beside public addresses, parsed. */
export interface ReceiverAllowList {
  networks: Network[];
  /** Host names, lower-case, without a trailing dot. */
  hosts: Set<string>;
  /** Whether anything is allowed (the local host inside the mine's network): then plain http is too. */
  any: boolean;
}

/** A host as the URL gives it: lower-case, without brackets or trailing dots («localhost.» is «localhost»). */
export const plainHost = (host: string): string =>
  host
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();

/** An IP address's bytes (4 or 16), or undefined for anything else; a zone (`%eth0`) is dropped. */
export function addressBytes(address: string): Uint8Array | undefined {
  const plain = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const kind = isIP(plain);
  if (kind === 4) return Uint8Array.from(plain.split(".").map(Number));
  if (kind !== 6) return undefined;
  let text = plain.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split(".").map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -dotted[1].length);
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const groups = (s: string | undefined) =>
    s
      ? s
          .split(":")
          .filter((g) => g !== "")
          .map((g) => Number.parseInt(g, 16))
      : [];
  const front = groups(head);
  const back = [...groups(rest), ...tail];
  const words =
    rest === undefined ? [...front, ...tail] : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  if (words.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 255;
  });
  return bytes;
}

const inNetwork = (bytes: Uint8Array, net: Network): boolean => {
  if (bytes.length !== net.bytes.length) return false;
  for (let bit = 0; bit < net.prefix; bit += 8) {
    const take = Math.min(8, net.prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8] & mask) !== (net.bytes[bit / 8] & mask)) return false;
  }
  return true;
};

const network = (text: string): Network => {
  const [address, prefix] = text.split("/");
  const bytes = addressBytes(address)!;
  return { bytes, prefix: prefix === undefined ? bytes.length * 8 : Number(prefix) };
};

/** IPv4 space that is no public unicast receiver (RFC 6890 and the multicast and reserved space). */
const IPV4_SPECIAL = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/3",
].map(network);
const IPV6_GLOBAL = network("2000::/3");
/** Inside 2000::/3 but no public receiver: IETF special space with Teredo, documentation, 6to4. */
const IPV6_SPECIAL = ["2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20"].map(network);

/** Whether an address is a public unicast one a receiver may have anywhere (AWS's and the default rule). */
export function publicAddress(address: string): boolean {
  const bytes = addressBytes(address);
  if (!bytes) return false;
  if (bytes.length === 4) return !IPV4_SPECIAL.some((n) => inNetwork(bytes, n));
  return inNetwork(bytes, IPV6_GLOBAL) && !IPV6_SPECIAL.some((n) => inNetwork(bytes, n));
}

/** The operator's entries (CIDR networks, addresses, host names) parsed; an entry that is none of
 *  them is an error naming it. */
export function receiverAllowList(entries: readonly string[] = []): ReceiverAllowList {
  const list: ReceiverAllowList = { networks: [], hosts: new Set(), any: false };
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "") continue;
    const [address, prefix, extra] = entry.split("/");
    const bytes = addressBytes(address);
    if (bytes) {
      const bits = prefix === undefined ? bytes.length * 8 : Number(prefix);
      if (extra !== undefined || !/^\d*$/.test(prefix ?? "") || !Number.isInteger(bits) || bits < 0 || bits > bytes.length * 8)
        throw new Error(`WEBHOOK_ALLOWED_RECEIVERS: «${entry}» is no network (expected, say, 10.20.0.0/16)`);
      list.networks.push({ bytes, prefix: bits });
    } else if (prefix === undefined && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)) {
      list.hosts.add(plainHost(entry));
    } else {
      throw new Error(`WEBHOOK_ALLOWED_RECEIVERS: «${entry}» is no network, address or host name`);
    }
    list.any = true;
  }
  return list;
}

/** Whether a receiver at `address` may be posted to: a public one, or one in a network the operator
 *  named (an IPv4-mapped IPv6 address counts as its IPv4 address there). */
export function addressAllowed(address: string, allow: ReceiverAllowList): boolean {
  if (publicAddress(address)) return true;
  const bytes = addressBytes(address);
  if (!bytes) return false;
  const mapped =
    bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff
      ? bytes.slice(12)
      : undefined;
  return allow.networks.some((n) => inNetwork(bytes, n) || (mapped !== undefined && inNetwork(mapped, n)));
}
