// What a person sees while the platform works: a facility's batches taken (the load said «Обработано» or the
// gateway's push answered 202) are read into the minutes, the events and the gassing book by the consumer
// and its subscribers (events/subscribers.ts) a little later — 10–20 s, more behind a long file. Until then
// the book said «Загазирований нет» and the journal and «Мониторинг» answered as if nothing had come: they
// now say «данные обрабатываются: N мин», N the minutes since the oldest of the facility's batches still
// queued was taken. One read of the facility's newest batches (its list of loads), as the climate periods'
// check reads it.
import { MINUTE_MS } from "@core/dates";
import { silenceSpan } from "@core/monitoring-events";
import type * as z from "zod";
import type { processingSchema } from "../../../contract/schemas/common";
import type { Deps } from "../../context";

/** The newest batches of a facility read for those still queued: a file's parts and a gateway's minutes
 *  behind the consumer are among them. */
export const PROCESSING_LOOKUP = 50;

/** The facility's batches not yet read into its events and book (the contract's processingSchema, null when
 *  none is): how many, the oldest one's receipt, whole minutes since then (at least 1: «1 мин» while the
 *  first minute runs) and «данные обрабатываются: 2 мин». */
export type Processing = NonNullable<z.output<typeof processingSchema>>;

/** «данные обрабатываются: N мин» (past the hour in hours, as a silence is said). */
export const processingText = (minutes: number) => `данные обрабатываются: ${silenceSpan(minutes)}`;

/** The facility's batches still queued, from its list of loads; null when every one is read. */
export async function facilityProcessing(
  deps: Pick<Deps, "repos" | "clock">,
  company: string,
  facility: string,
): Promise<Processing | null> {
  const queued = (await deps.repos.monitoring.batchesOfFacility(company, facility, PROCESSING_LOOKUP)).filter((b) => b.state === "queued");
  if (queued.length === 0) return null;
  const since = queued.map((b) => b.received_at).sort()[0];
  const minutes = Math.max(1, Math.ceil((deps.clock.now().getTime() - Date.parse(since)) / MINUTE_MS));
  return { batches: queued.length, since, minutes, text: processingText(minutes) };
}
