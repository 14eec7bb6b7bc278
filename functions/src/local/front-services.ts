// What the local server's app threads share, kept on its front thread and called from them
// (thread-calls.ts, app-thread.ts): one pool of spreadsheet and scoring threads, one readings'
// consumer, one webhook sender, one slot ledger, one signer, one change stream whose subscribers the
// live tiles' streams are among, one line per user and gateway key, one count of refusals per address.
import type { Deps } from "../domain/context";
import type { Change } from "../ports";
import type { StreamRecord } from "../events/table-changes";
import type { RefusalPace, RequestPace } from "../http/request-pace";
import type { WebhookSender } from "../domain/monitoring/derive/webhooks";
import type { UploadCreation } from "./upload-notifications";

/** Refusals given out and not given back that are remembered; the oldest forgotten past it (a request
 *  whose token never held gives none back). */
const HELD_REFUSALS = 10_000;

/** Refusals taken for a thread, each given back by its ticket. */
function ticketedRefusals(refusals: RefusalPace) {
  const held = new Map<number, () => void>();
  let next = 1;
  return {
    async take(address: string): Promise<{ wait: number; ticket: number }> {
      const taken = await refusals.take(address);
      if (taken.wait > 0) return { wait: taken.wait, ticket: 0 };
      const ticket = next++;
      held.set(ticket, taken.giveBack);
      if (held.size > HELD_REFUSALS) held.delete(held.keys().next().value as number);
      return { wait: 0, ticket };
    },
    giveBack(ticket: number): void {
      held.get(ticket)?.();
      held.delete(ticket);
    },
  };
}

/** The spreadsheet worker's methods whose document the front only hands on to a spreadsheet thread. */
export const RENDERED_DOCUMENTS = ["monitoringFile", "trendWorkbook", "comparisonWorkbook", "abatementFile", "climateReportFile"];

export function sharedServices(front: {
  deps: Deps;
  threads: object;
  scoring: object;
  consumer?: object;
  uploads: { created(key: string, size: number, how: UploadCreation): void };
  /** The table stream's queue of the front (storage.ts): a thread's writes' records. */
  streamRecord?(record: StreamRecord): unknown;
  webhooks: Pick<WebhookSender, "due">;
  pace: RequestPace;
  gatewayPace: RequestPace;
  refusals: RefusalPace;
}): Record<string, object> {
  const { deps } = front;
  return {
    spreadsheets: deps.spreadsheets,
    uploadFiles: front.threads,
    scoring: front.scoring,
    signer: deps.signer,
    ...(deps.gostCms ? { gostCms: deps.gostCms } : {}),
    ...(front.consumer ? { readingsConsumer: front.consumer } : {}),
    ...(deps.slotLedger ? { slotLedger: deps.slotLedger } : {}),
    changes: { publish: (change: Change) => deps.runtime.changes.publish(change) },
    stream: { push: (record: StreamRecord) => front.streamRecord?.(record) },
    uploads: { created: (key: string, size: number, how: UploadCreation) => front.uploads.created(key, size, how) },
    webhooks: { due: () => void front.webhooks.due() },
    pace: { take: (who: string) => front.pace.take(who) },
    gatewayPace: { take: (who: string) => front.gatewayPace.take(who) },
    refusals: ticketedRefusals(front.refusals),
  };
}
