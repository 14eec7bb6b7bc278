// What happened in the mine's monitoring, published once by whoever did it (the readings' consumer,
// the forecaster, a binding's route, the event detector) on the change stream its host owns. The
// publisher knows no subscriber: they are listed, in order, in one table (events/subscribers.ts), from
// which each host derives its own (local/subscribers.ts for the local server and its consumer's thread,
// lambda/readings-consumer.ts for the readings' function) and runs it on an in-process bus
// (events/runtime.ts).
// docs/architecture.md «One change stream, its subscribers per host».

import type { Sensor } from "./monitoring";

/** One sensor's readings as applied (UTC ms and values, in the order read; a correction replaces). */
export interface AppliedReadings {
  sensor: string;
  times: Float64Array;
  values: Float64Array;
}

/** A facility's readings written by the consumer, into its minute items (an open day) or its sensors'
 *  day items (a closed day): a drain round's batches together, or a part of a dispatch file as it is
 *  in. Every subscriber must be idempotent: a kill before the batches are marked done publishes the
 *  same readings again. */
export interface ReadingsWritten {
  type: "ReadingsWritten";
  company: string;
  facility: string;
  /** The batches (or parts of a file's batch, `{batch}#{n}`) whose readings these are. */
  batches: string[];
  /** Each (sensor, UTC day) whose readings were written, in a minute item or the day's item. */
  days: { sensor: string; day: string }[];
  /** Each sensor's earliest instant the batches changed (UTC ms). */
  since: Record<string, number>;
  /** The batches' readings per sensor, as applied. */
  readings: readonly AppliedReadings[];
  /** The facility's sensor register, read once by the consumer for every subscriber (ingest/kept-register.ts);
   *  a subscriber handed none reads it (registerOfChange). */
  register?: readonly Sensor[];
}

/** The forecaster stored a working's forecast anew (TLIVEFORECAST#): the tiles read it. */
export interface ForecastStored {
  type: "ForecastStored";
  company: string;
  facility: string;
  forecasts: { working: string; horizon: number; sensor: string }[];
}

/** A working's model binding was made, changed or removed: the tiles read their inputs again. */
export interface BindingChanged {
  type: "BindingChanged";
  company: string;
  facility: string;
}

/** Webhook deliveries were stored due now (WHQUEUE): the sender takes them. */
export interface DeliveriesDue {
  type: "DeliveriesDue";
  company: string;
}

/** Everything the change stream carries: a closed union. */
export type Change = ReadingsWritten | ForecastStored | BindingChanged | DeliveriesDue;
export type ChangeKind = Change["type"];
export type ChangeOf<K extends ChangeKind> = Extract<Change, { type: K }>;

/** The stream a publisher tells what happened. Resolves once every subscriber the host runs here has
 *  heard it; rejects (after all have run) when one failed, so a consumer leaves its batches queued.
 *  `later`, when given, is awaited after the prompt subscribers and before the others: the consumer's
 *  turn handed on, so the live tiles hear a batch as soon as it is written and the forecaster and the
 *  detector run in a later turn, after the other facilities' batches waiting to be written. */
export interface ChangeStream {
  publish(change: Change, later?: () => Promise<void>): Promise<void>;
}

/** A subscriber of the changes of kinds `K`: who it is, what it hears, what it does with them. */
export interface SubscriberOf<D, K extends ChangeKind> {
  name: string;
  hears: readonly K[];
  /** Heard before the publisher's `later` turn: quick, and what a watching page shows first (the tiles). */
  prompt?: boolean;
  run(deps: D, change: ChangeOf<K>): unknown;
}

/** One line of a host's table, whatever it hears. */
export type Subscriber<D> = { [K in ChangeKind]: SubscriberOf<D, K> }[ChangeKind] | SubscriberOf<D, ChangeKind>;
