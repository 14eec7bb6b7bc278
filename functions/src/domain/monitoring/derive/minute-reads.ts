// Issue 107: the reads that fold a facility's stored minutes — the gassings register of up to 92 days,
// the operator's journal of a day of 60 meters — cost seconds of CPU. In their route's heavy-work slot
// they still ran on the request thread, and A's 10 reads of 92 days took B's get_me p95 to 2 s. They are answered off the request
// thread where the host can: the local host's spreadsheet threads compute them
// (SpreadsheetWorker.minutesRead, each company one at a time with its whole-year answers); in AWS the
// API instance that serves the request, which serves no other.
import type { Actor, Deps } from "../../context";
import type { MinutesRead } from "../../../ports";
import { listGassings, operatorJournal } from "./journal";

/** The read's answer as JSON text, computed here, in this thread: where the host's threads compute it
 *  (the local host's spreadsheet thread) and where the host has none. */
export async function minutesReadAnswer(deps: Pick<Deps, "repos" | "clock">, actor: Actor, read: MinutesRead): Promise<string> {
  return JSON.stringify(
    read.read === "gassings" ? await listGassings(deps, actor, read.query) : await operatorJournal(deps, actor, read.query),
  );
}

/** The read's answer as the route sends it: off the request thread where the host can. */
export function minutesRead(deps: Pick<Deps, "repos" | "clock" | "spreadsheets">, actor: Actor, read: MinutesRead): Promise<string> {
  const threads = deps.spreadsheets.minutesRead;
  return threads ? threads(actor, read) : minutesReadAnswer(deps, actor, read);
}
