// the reads that fold a facility's stored minutes — the gassings register of up to 92 days,
// the operator's journal of a day of 60 meters; a year's sensor completeness (11,1 s for 200
// meters) and offers, a working's day chart — cost seconds of CPU. In their route's heavy-work slot
// they still ran on the request thread, and A's 10 reads of 92 days took B's get_me p95 to 2 s. They are answered off the request
// thread where the host can: the local host's spreadsheet threads compute them
// (SpreadsheetWorker.minutesRead, each company one at a time with its whole-year answers); in AWS the
// API instance that serves the request, which serves no other. At the wing's top (layers.test.ts):
// it answers the tiles' reads too.
import type { Actor, Deps } from "../../context";
import type { MinutesRead } from "../../../ports";
import { listGassings, operatorJournal } from "../derive/journal";
import { sensorCompleteness, sensorDay, sensorGaps } from "../minutes/sensor-data";
import { acceptOffers, listOffers } from "../minutes/offers";
import { liveChart, liveView, type LiveView } from "./live";
import { liveFromHeads } from "./live-head";
import { liveShared, watchedView } from "./live-watch";

/** The read's answer, computed here, in this thread. */
function answerOf(deps: Deps, actor: Actor, read: MinutesRead): Promise<unknown> {
  switch (read.read) {
    case "gassings":
      return listGassings(deps, actor, read.query);
    case "journal":
      return operatorJournal(deps, actor, read.query);
    case "completeness":
      return sensorCompleteness(deps, actor, read.query.facility, read.query.year);
    case "sensor_gaps": {
      const { facility, sensor, ...month } = read.query;
      return sensorGaps(deps, actor, facility, sensor, month);
    }
    case "sensor_day":
      return sensorDay(deps, actor, read.query.facility, read.query.sensor, read.query.date);
    case "offers":
      return listOffers(deps, actor, read.query.facility, read.query.year);
    case "live_chart":
      return liveChart(deps, actor, read.query.facility, read.query.working);
    case "live":
      return liveView(deps, actor, read.query.facility);
    case "accept_offers":
      return acceptOffers(deps, actor, read.query);
  }
}

/** The read's answer as JSON text, computed here, in this thread: where the host's threads compute it
 *  (the local host's spreadsheet thread, whose ports are the repositories, the blobs, the clock and a
 *  runtime of its own) and where the host has none. */
export async function minutesReadAnswer(deps: Deps, actor: Actor, read: MinutesRead): Promise<string> {
  return JSON.stringify(await answerOf(deps, actor, read));
}

/** The read's answer as the route sends it: off the request thread where the host can. */
export function minutesRead(deps: Deps, actor: Actor, read: MinutesRead): Promise<string> {
  const threads = deps.spreadsheets.minutesRead;
  return threads ? threads(actor, read) : minutesReadAnswer(deps, actor, read);
}

/** The facility's tiles now without a fold on this thread: a page's watch's, else the kept
 *  heads'; where they cannot answer (none kept yet, a bound model's forecast not stored), computed off
 *  the request thread. The live route and the shift handover read them so. */
export async function currentLiveView(deps: Deps, actor: Actor, facility: { id: string; name: string }): Promise<LiveView> {
  return (
    watchedView(deps, actor.company, facility.id) ??
    (await sharedFromHeads(deps, actor.company, facility)) ??
    (JSON.parse(await minutesRead(deps, actor, { read: "live", query: { facility: facility.id } })) as LiveView)
  );
}

/** How long the tiles computed from the kept heads answer the facility's other requests (a change to its
 *  readings, bindings or forecasts ends it at once: liveTilesHear). */
export const LIVE_SHARED_MS = 1_000;

/** the tiles of 200 meters cost tens of ms of this thread each, and 10 lanes asking for
 *  them took another company's get_me p95 to 694 ms. Requests for a facility's tiles within LIVE_SHARED_MS
 *  of each other, or while they are computed, get one computation's answer. */
function sharedFromHeads(deps: Deps, company: string, facility: { id: string; name: string }): Promise<LiveView | undefined> {
  const shared = deps.runtime.kept(liveShared);
  const key = `${company}|${facility.id}`;
  const now = deps.clock.now().getTime();
  const kept = shared.get(key);
  if (kept && now - kept.at < LIVE_SHARED_MS && now >= kept.at) return kept.view;
  const view = liveFromHeads(deps, company, facility);
  shared.set(key, { at: now, view });
  view.then(
    (answer) => {
      if (answer === undefined && shared.get(key)?.view === view) shared.delete(key);
    },
    () => {
      if (shared.get(key)?.view === view) shared.delete(key);
    },
  );
  return view;
}
