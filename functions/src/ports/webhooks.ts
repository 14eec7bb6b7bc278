// A company's webhooks: the URLs its monitoring events are posted to, signed with the
// webhook's secret, and each delivery with its attempts (domain/monitoring/derive/webhooks.ts).

/** A webhook as stored. The secret is kept as it was made (it signs every delivery); the API shows it
 *  once, when the webhook is created, and then only its first characters. */
export interface WebhookRecord {
  company: string;
  id: string;
  url: string;
  label: string;
  secret: string;
  created_at: string;
  created_by: string;
}

export type WebhookDeliveryState = "pending" | "delivered" | "failed";

/** One message to one webhook: made once per idempotency key (an event and whether it is open or
 *  closed), tried until the receiver answers 2xx or the attempts run out. */
export interface WebhookDeliveryRecord {
  company: string;
  webhook: string;
  /** The idempotency key, sent as the Idempotency-Key header. */
  key: string;
  /** Sorts the webhook's log: the event's start, then the key. */
  sort: string;
  event: string;
  /** The JSON body as it is signed and posted, the same bytes every attempt. */
  body: string;
  state: WebhookDeliveryState;
  attempts: number;
  /** The receiver's last HTTP status, 0 when it could not be reached. */
  last_status: number;
  last_error: string;
  created_at: string;
  /** When it is tried next (pending), ISO. */
  next_at: string;
  delivered_at: string | null;
  version: number;
}

export interface WebhookRepository {
  create(hook: WebhookRecord): Promise<void>;
  list(companyId: string): Promise<WebhookRecord[]>;
  get(companyId: string, id: string): Promise<WebhookRecord | undefined>;
  /** Removes the webhook and its pending deliveries' queue marks (its log goes with it). */
  remove(companyId: string, id: string): Promise<void>;
  /** Stores the delivery and its queue mark unless one with its key exists; false when it did. */
  createDelivery(delivery: WebhookDeliveryRecord): Promise<boolean>;
  getDelivery(companyId: string, webhook: string, sort: string): Promise<WebhookDeliveryRecord | undefined>;
  /** Writes `next` if the stored version is still `previous.version`, moving its queue mark from
   *  previous.next_at to next.next_at while pending (removing it once delivered or failed); false otherwise. */
  updateDelivery(next: WebhookDeliveryRecord, previous: WebhookDeliveryRecord): Promise<boolean>;
  /** The webhook's deliveries, newest first, at most `limit`. */
  deliveries(companyId: string, webhook: string, limit: number): Promise<WebhookDeliveryRecord[]>;
  /** Queue marks due at `now` (ISO) or before, oldest first, at most `limit`; with `after`, those
   *  after that mark (the next page of the same read). */
  due(now: string, limit: number, after?: WebhookQueued): Promise<WebhookQueued[]>;
  /** Removes a queue mark that points at nothing pending (its delivery gone, done or moved). */
  dropQueued(mark: WebhookQueued): Promise<void>;
}

export interface WebhookQueued {
  company: string;
  webhook: string;
  sort: string;
  next_at: string;
}
