// How a webhook's delivery leaves the host (domain/monitoring/derive/webhooks.ts): a POST to the
// receiver, over a connection to an address the domain's rule allows (webhook-addresses.ts). The hosts
// give Node's HTTP and DNS (adapters/webhooks/http-webhook-transport.ts); the domain's tests may give an
// in-memory receiver.

/** The answer when no address of the receiver is allowed: the far end is never reached. */
export type ReceiverRefused = "address not allowed";

/** One attempt's request. */
export interface WebhookPost {
  url: URL;
  headers: Record<string, string>;
  body: string;
  /** Whether the receiver may be reached at `address` (an IP address): asked of the URL's host when it
   *  is one, else of each address its name resolves to at this attempt. The connection goes to an
   *  address allowed, so no second lookup decides where the body goes. */
  allowed(address: string): boolean;
  /** Cuts the attempt (its timeout, the sender's stop). */
  signal: AbortSignal;
}

export interface WebhookTransport {
  /** Posts, never following a redirect: the receiver's status, or the refusal when no address of the
   *  receiver is allowed. Rejects when the receiver cannot be reached or the signal cuts the attempt. */
  post(request: WebhookPost): Promise<number | ReceiverRefused>;
}
