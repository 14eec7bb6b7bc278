// The shift handovers of a period as a document (D95): read here, rendered by the spreadsheet worker
// (export/instruments.ts) as the «Метан» journal's and the register's documents are (instruments/documents.ts).
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import type { HandoversDocument, sensorCheckPeriodQuery } from "../../../contract/schemas/sensor-checks";
import { facilityShifts } from "../instruments/shifts";
import { listHandovers } from "./handover";

/** The document's title: its file's name and first line. */
export const HANDOVERS_TITLE = "Передача смены";

type Period = z.output<typeof sensorCheckPeriodQuery>;

/** The handovers of a period, oldest first. */
export async function handoversDocument(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  query: Period,
): Promise<HandoversDocument> {
  const list = await listHandovers(deps, actor, facilityId, query);
  const shifts = await facilityShifts(deps, actor.company, list.facility);
  return { ...list, results: [...list.results].reverse(), zone: shifts.zone, issued_at: deps.clock.now().toISOString() };
}
