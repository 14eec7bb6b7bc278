// Webhook deliveries over Node's HTTP and DNS (ports/webhook-transport.ts): the receiver's name is
// resolved by the connection's own lookup, which answers only the addresses the domain allows, so the
// socket connects to an address that was checked and no second lookup decides where the body goes
// (R15).
import { lookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { plainHost } from "../../domain/monitoring/derive/webhook-addresses";
import type { ReceiverRefused, WebhookTransport } from "../../ports";

const REFUSED: ReceiverRefused = "address not allowed";

class ReceiverNotAllowed extends Error {}

/** The connection's lookup: the name's addresses that are allowed, or an error when none is.
 *  «localhost» and its subdomains, with or without a trailing dot, are loopback whatever a resolver
 *  says (RFC 6761). */
function checkedLookup(allowed: (address: string) => boolean) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const answer = (addresses: LookupAddress[]) => {
      const kept = addresses.filter((a) => allowed(a.address));
      if (kept.length === 0) return callback(new ReceiverNotAllowed(), "");
      if (options.all) callback(null, kept);
      else callback(null, kept[0].address, kept[0].family);
    };
    const host = plainHost(hostname);
    if (host === "localhost" || host.endsWith(".localhost")) {
      const loopback = [
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ];
      return answer(options.family ? loopback.filter((a) => a.family === options.family) : loopback);
    }
    lookup(hostname, { ...options, all: true }, (error, addresses) => (error ? callback(error, "") : answer(addresses)));
  };
}

export const httpWebhookTransport: WebhookTransport = {
  post({ url, headers, body, allowed, signal }) {
    // A host that is an address is checked here, a name by the lookup its connection makes.
    const host = plainHost(url.hostname);
    if (isIP(host) && !allowed(host)) return Promise.resolve(REFUSED);
    return new Promise((resolve, reject) => {
      const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
        url,
        {
          method: "POST",
          headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
          agent: false,
          signal,
          lookup: checkedLookup(allowed),
        },
        (response) => {
          resolve(response.statusCode ?? 0);
          response.destroy();
        },
      );
      request.on("error", (error) => (error instanceof ReceiverNotAllowed ? resolve(REFUSED) : reject(error)));
      request.end(body);
    });
  },
};
