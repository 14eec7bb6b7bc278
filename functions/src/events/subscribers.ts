// The change stream's subscribers (ports/changes.ts), in the order they hear a change: the one table
// both hosts' tables are derived from. The local server runs every line (local/subscribers.ts, on its
// request thread or its consumer's thread as the line says); the readings' function in AWS runs the
// lines marked `aws` (lambda/readings-consumer.ts), each awaited before it answers SQS.
import type { Deps } from "../domain/context";
import { recheckAcceptances } from "../domain/monitoring/minutes/accepted-changes";
import { detectEvents } from "../domain/monitoring/derive/events";
import { keepFoundGassings } from "../domain/monitoring/derive/gassing-record";
import { forecastReadingsWritten } from "../domain/monitoring/live/forecaster";
import { liveTilesHear } from "../domain/monitoring/live/live-watch";
import { keepLiveHeads } from "../domain/monitoring/live/live-head";
import { flagChangedReadings } from "../domain/climate/approvals";
import type { Subscriber } from "../ports";

/** What the subscribers are given: the host's deps (the consumer's thread and the readings' function
 *  have no more than these). */
export type SubscriberDeps = Pick<Deps, "repos" | "blobs" | "clock" | "runtime"> &
  Partial<Pick<Deps, "config" | "modelScoring" | "webhooksDue">>;

/** A line of the table: the thread it runs on locally, and whether the readings' function runs it. */
export type HostSubscriber = Subscriber<SubscriberDeps> & { thread: "request" | "consumer"; aws: boolean };

export const SUBSCRIBERS: readonly HostSubscriber[] = [
  // Before the tiles: their GET answers from the facility's kept heads, merged here as the
  // readings are applied, in AWS too (the page polls them there).
  { name: "live heads", thread: "consumer", aws: true, prompt: true, hears: ["ReadingsWritten"], run: keepLiveHeads },
  // First: the tiles read only the days, written now, not what the others make of them; prompt, told
  // in the consumer's turn that wrote them (the lines below in a later one). Not in AWS: the page polls
  // the stored days there.
  {
    name: "live tiles",
    thread: "request",
    aws: false,
    prompt: true,
    hears: ["ReadingsWritten", "ForecastStored", "BindingChanged"],
    run: liveTilesHear,
  },
  // Before the detector: a forecast is what a watching page waits for.
  { name: "forecaster", thread: "consumer", aws: true, hears: ["ReadingsWritten"], run: forecastReadingsWritten },
  { name: "event detector", thread: "consumer", aws: true, hears: ["ReadingsWritten"], run: detectEvents },
  // D89: a gassing the minutes give is the book's entry from then on; a correction adds to it.
  { name: "gassing record", thread: "consumer", aws: true, hears: ["ReadingsWritten"], run: keepFoundGassings },
  { name: "acceptances' recheck", thread: "consumer", aws: true, hears: ["ReadingsWritten"], run: recheckAcceptances },
  // Readings written into a climate project's periods: the period is flagged, its figures unmoved.
  { name: "climate periods' flag", thread: "consumer", aws: true, hears: ["ReadingsWritten"], run: flagChangedReadings },
  // The host's sender (webhookSender, made by the host): told, not awaited, so a receiver that hangs
  // holds no consumer; locally it also looks for what is due every few seconds, and the readings'
  // function waits for it before it answers.
  { name: "webhook sender", thread: "request", aws: true, hears: ["DeliveriesDue"], run: (deps: SubscriberDeps) => deps.webhooksDue?.() },
];
