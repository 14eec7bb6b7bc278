// The mine's monitoring (methodology section 12): its sensor register (D56) and the gateway keys its
// dispatch gateway pushes readings with.
import type { SuspectDetail } from "@core/monitoring-suspect";
import type * as z from "zod";
import type { gatewayKeySchema, sensorSchema } from "../contract/schemas/sensor";
import type { batchStatusSchema, liveBindingSchema, liveTileSchema } from "../contract/schemas/monitoring";
import type { GassingType, methaneLimitEditionSchema } from "../contract/schemas/journal";
import type { Duty, Onset } from "@core/gassing-book";
import type { CompanyObjects } from "./company-objects";
import type { MethanePlace } from "@core/methane-limits";

/** D56: a sensor of a facility with its register as it was, change by change. */
export type Sensor = z.output<typeof sensorSchema>;

export interface SensorRepository {
  /** Refused (Conflict) when the id is taken. */
  create(sensor: Sensor): Promise<void>;
  get(companyId: string, facilityId: string, sensorId: string): Promise<Sensor | undefined>;
  /** The facility's sensors, retired ones too, by code. */
  listOfFacility(companyId: string, facilityId: string): Promise<Sensor[]>;
  /** Writes `next` only if the stored version is still `expectedVersion`; otherwise Conflict. */
  replace(next: Sensor, expectedVersion: number): Promise<void>;
  /** Removes a sensor created moments before: only an import undoing its own writes when one of
   *  them failed (domain/monitoring/ingest/sensor-import.ts); a sensor in use is retired, never removed. */
  remove(companyId: string, facilityId: string, sensorId: string): Promise<void>;
  /** A mark that every write above moves once it is made (a new one each time): a host keeps the
   *  register it read with the mark it read before it, and reads the register again only when the mark
   *  moved (domain/monitoring/ingest/kept-register.ts). Undefined while none was made. */
  registerStamp(companyId: string, facilityId: string): Promise<string | undefined>;
  /** the claim a request takes on a code of the facility's register before it checks
   *  that no sensor in service has it and stores one that does, so that of parallel creates of one code
   *  one stores and the others are refused: true when taken (none held, or one taken before
   *  `staleBefore` by a request that never released it), false when another request holds it. */
  claimCode(claim: SensorCodeClaim, staleBefore: string): Promise<boolean>;
  /** Gives the claim back (only if it is still `claim.token`'s). */
  releaseCode(claim: SensorCodeClaim): Promise<void>;
}

/** a request's hold on a code of a facility's register while it stores a sensor of it. */
export interface SensorCodeClaim {
  company: string;
  facility: string;
  /** The code as compared (lower case, ru): «DUP-1» and «dup-1» are one code. */
  code: string;
  /** The request's own id: only it releases the claim. */
  token: string;
  /** ISO instant it was taken: a claim its request never released is taken over after a while. */
  at: string;
}

/** A gateway key as stored: its SHA-256, never the key. */
export type GatewayKey = z.output<typeof gatewayKeySchema> & { company: string; hash: string };

/** What a key presented is: the facility it may push to. */
export interface GatewayKeyGrant {
  company: string;
  facility: string;
  id: string;
}

export interface GatewayKeyRepository {
  /** Stores the key and the lookup of its hash together; Conflict when either exists. */
  create(key: GatewayKey): Promise<void>;
  /** The facility's keys, revoked ones too, newest first. */
  listOfFacility(companyId: string, facilityId: string): Promise<GatewayKey[]>;
  get(companyId: string, facilityId: string, keyId: string): Promise<GatewayKey | undefined>;
  /** Marks the key revoked at `at` and removes its lookup together: a revoked key never authenticates. */
  revoke(companyId: string, facilityId: string, keyId: string, at: string): Promise<void>;
  /** The grant of a key's hash, undefined for none or a revoked one. */
  byHash(hash: string): Promise<GatewayKeyGrant | undefined>;
}

/** A pushed reading as a batch keeps it: its sensor's id, its instant (ms since the epoch), its value. */
export type BatchReading = [sensor: string, t: number, value: number];

/** A pushed batch as stored (its readings kept in the table beside it, `readings_in: "table"`, or a
 *  blob, telemetry/batches/{company}/{batch}.json). */
export type ReadingsBatch = z.output<typeof batchStatusSchema> & {
  company: string;
  refused_count: number;
  /** A dispatch file's batch: the stored file its readings are read from (domain/monitoring/ingest/files.ts). */
  file?: string;
  /** Applications of the batch that failed so far (domain/monitoring/minutes/consumer.ts RETRIES). */
  attempts?: number;
  /** After a failed application: not tried again before this instant (ISO). */
  retry_at?: string;
  /** false: announced on the host's own durable queue (SQS), so stored without a mark in the table's
   *  queue (a mark put only where the announcement failed, removed by the minute's sweep once the batch
   *  is done); absent: marked, as every batch stored before and every batch of the local host. */
  queue_mark?: false;
  /** "table": its readings are kept in the table (MonitoringRepository.batchReadings); absent: in the
   *  blob telemetry/batches/{company}/{batch}.json, as every batch stored before and a large push. */
  readings_in?: "table";
  /** A push with an Idempotency-Key: the SHA-256 of its body's lines as read (ingest/readings.ts
   *  bodyFingerprint), which the key sent again must match; absent for a push
   *  without a key, a file and every batch stored before. */
  body_sha256?: string;
};

/** A batch as its facility's list of loads holds it: without its refused lines. */
export type ListedBatch = Omit<ReadingsBatch, "refused">;

/** A sensor's readings of one UTC day, packed (D57: idempotent by (sensor, instant)): the instants as
 *  ms since the day's 00:00 UTC and the values, in time order; the batches applied to it with their
 *  counts (so applying one again counts nothing twice); the corrections with the old values. */
export interface SensorDay {
  company: string;
  sensor: string;
  /** yyyy-MM-dd, UTC. */
  day: string;
  offsets: Uint32Array;
  values: Float64Array;
  applied: Record<string, [accepted: number, duplicate: number, corrected: number]>;
  corrections: { t: number; old: number; value: number; batch: string }[];
  /** Written by the compaction of a closed day (domain/monitoring/minutes/minutes.ts): its minute items are
   *  in it, and are not read for it any more. Absent on days written otherwise (the old layout's days,
   *  a closed day's late readings before its compaction). */
  compacted?: boolean;
  version: number;
}

/** a facility's readings of one UTC minute of an open day, every sensor's, as the pushes
 *  brought them: reading k is sensor `sensors[sensor[k]]` at `offsets[k]` ms into the minute with
 *  `values[k]`, written by batch `batches[batch[k]]`. The batches applied to it with their counts in this
 *  minute (one applied again counts nothing twice) and their order keys (`{received_at}#{batch}`: of two
 *  values for one instant the later batch's is kept, whichever is applied last); the corrections with
 *  the old values. */
export interface MinuteReadings {
  company: string;
  facility: string;
  /** yyyy-MM-dd, UTC. */
  day: string;
  /** HH:mm, UTC. */
  minute: string;
  sensors: string[];
  sensor: Uint16Array;
  offsets: Uint16Array;
  values: Float64Array;
  batch: Uint16Array;
  batches: { key: string; counts: [accepted: number, duplicate: number, corrected: number] }[];
  corrections: (SensorDay["corrections"][number] & { sensor: string })[];
  version: number;
}

/** a facility's log of its latest minute writes, bumped before each (minutes/minute-window.ts):
 *  what a host that keeps the facility's recent minutes reads (one small item) to learn which of them
 *  others wrote since it last looked. Each write of the head logs one write, `${day} ${minute} ${version}`
 *  (the minute's version that write makes), oldest first: entry i of n was logged by head version
 *  `version - (n - 1 - i)`. */
export interface MinutesHead {
  company: string;
  facility: string;
  written: string[];
  version: number;
}

/** what a facility's live tiles read of each sensor's readings, kept as they are
 *  applied (domain/monitoring/live/live-head.ts): its latest instant and value, and the gaps between
 *  its latest readings (the expected interval D65's staleness reads), so the tiles are one read. */
export interface SensorHead {
  /** The latest reading's instant (UTC ms) and value. */
  at: number;
  value: number;
  /** The gaps between its latest readings (ms), newest first, at most LIVE_HEAD_GAPS. */
  gaps: number[];
}

/** a facility's sensors' heads, one item, written at a version. */
export interface LiveHead {
  company: string;
  facility: string;
  sensors: Record<string, SensorHead>;
  version: number;
}

/** what a bound working's forecasts read of one sensor, kept as the forecaster's rounds
 *  take in its readings (domain/monitoring/live/forecast-means.ts): its D59 minute means and its latest
 *  reading, so that a round reads the minutes since its last, not the day's. */
export interface SensorMeans {
  /** The first minute's start (UTC ms, on a minute). */
  from: number;
  /** Each minute's mean from `from` on (NaN: no valid reading), up to the latest reading's minute. */
  means: Float64Array;
  /** The latest reading's instant (UTC ms) and value; −∞ and NaN for a sensor without a reading. */
  at: number;
  value: number;
  /** The instant storage was read up to when they were taken (UTC ms): a sensor without a reading is
   *  read again from there, not over the whole window. */
  checked: number;
}

/** a bound working's kept minute means, by sensor (its meters' and its models' columns'),
 *  one item, written at a version. */
export interface ForecastMeans {
  company: string;
  facility: string;
  working: string;
  sensors: Record<string, SensorMeans>;
  version: number;
}

export interface MonitoringRepository {
  /** Stores the batch (state queued), then its mark in the queue (none where `queue_mark` is false).
   *  It is not yet in its facility's list (listBatch): a crash before its answer leaves a batch that
   *  nothing lists or waits for. */
  createBatch(batch: ReadingsBatch): Promise<void>;
  /** The batch's line in its facility's list of loads, unless one is there already (the consumer's,
   *  written as it applied the batch, is never overwritten): the last write before the answer 202. */
  listBatch(batch: ReadingsBatch): Promise<void>;
  getBatch(companyId: string, batchId: string): Promise<ReadingsBatch | undefined>;
  /** The batch done with its counts, and its queue mark removed (none where `queue_mark` is false). */
  finishBatch(batch: ReadingsBatch): Promise<void>;
  /** A push's readings kept in the table, packed, where they fit in a few write units (a gateway's
   *  minute: a write unit a KB costs what an S3 PUT does at 8 KB); false, nothing written, where they do
   *  not (the caller keeps them as a blob). */
  putBatchReadings(companyId: string, batchId: string, readings: readonly BatchReading[]): Promise<boolean>;
  /** A push's readings kept in the table, in the order pushed, or undefined. */
  batchReadings(companyId: string, batchId: string): Promise<BatchReading[] | undefined>;
  /** A stored batch's mark in the queue put (`queued`) or removed, whatever its `queue_mark`: a
   *  batch whose announcement failed, and its mark once it is done. */
  markQueued(batch: ReadingsBatch, queued: boolean): Promise<void>;
  /** The batch's item written as given, its queue mark kept (a failed application: its attempts and
   *  when it is tried again). */
  updateBatch(batch: ReadingsBatch): Promise<void>;
  /** The facility's batches, newest first, at most `limit`, each without its refused lines (their count
   *  kept): its list of loads («Загрузки АГК»). */
  batchesOfFacility(companyId: string, facilityId: string, limit: number): Promise<ListedBatch[]>;
  /** The batches still queued, oldest first, at most `limit`: what a restart takes up again. A mark
   *  names its batch's facility (the consumer's lane), but one stored before it did has none. */
  queued(limit: number): Promise<{ company: string; batch: string; facility?: string }[]>;
  getDay(companyId: string, sensorId: string, day: string): Promise<SensorDay | undefined>;
  getDays(companyId: string, sensorId: string, days: readonly string[]): Promise<SensorDay[]>;
  /** Writes the day if its stored version is still `expectedVersion` (0: none stored); false otherwise. */
  putDay(day: SensorDay, expectedVersion: number): Promise<boolean>;
  getMinute(companyId: string, facilityId: string, day: string, minute: string): Promise<MinuteReadings | undefined>;
  /** Writes the minute if its stored version is still `expectedVersion` (0: none stored); false otherwise. */
  putMinute(minute: MinuteReadings, expectedVersion: number): Promise<boolean>;
  /** The facility's minutes of a day from `from` to `to` (HH:mm, both included; the whole day without
   *  them), in time order: one Query. */
  minutesOf(companyId: string, facilityId: string, day: string, from?: string, to?: string): Promise<MinuteReadings[]>;
  /** The facility's log of its minute writes (strongly consistent), or undefined before the first. */
  getMinutesHead(companyId: string, facilityId: string): Promise<MinutesHead | undefined>;
  /** Writes the head if its stored version is still `expectedVersion` (0: none stored); false otherwise. */
  putMinutesHead(head: MinutesHead, expectedVersion: number): Promise<boolean>;
  /** the facility's sensors' heads (strongly consistent), or undefined before the first. */
  getLiveHead(companyId: string, facilityId: string): Promise<LiveHead | undefined>;
  /** Writes the heads if their stored version is still `expectedVersion` (0: none stored); false otherwise. */
  putLiveHead(head: LiveHead, expectedVersion: number): Promise<boolean>;
  /** a bound working's kept minute means (strongly consistent), or undefined before the first. */
  getForecastMeans(companyId: string, facilityId: string, working: string): Promise<ForecastMeans | undefined>;
  /** Writes the means if their stored version is still `expectedVersion` (0: none stored); false otherwise. */
  putForecastMeans(means: ForecastMeans, expectedVersion: number): Promise<boolean>;
  /** Whether the facility's open day has had the day items written before an earlier release moved into its minutes
   *  (an earlier round's upgrade; a mark in the day's minutes partition, expiring after the day is compacted). */
  openDayMoved(companyId: string, facilityId: string, day: string): Promise<boolean>;
  markOpenDayMoved(companyId: string, facilityId: string, day: string): Promise<void>;
  /** Whether the facility has minutes of the day stored and not yet compacted (a Query of one key). */
  hasMinutes(companyId: string, facilityId: string, day: string): Promise<boolean>;
  /** Done with the facility's minutes of a day once they are compacted into its sensors' days: the day
   *  is marked so (hasMinutes answers false from then on) and its minutes are left to their expiry
   *  (DynamoDB's TTL, some days on; the local host removes them itself, local/expired-minutes.ts). */
  removeMinutes(companyId: string, facilityId: string, day: string, minutes: readonly string[]): Promise<void>;
  /** D63: a point's month accepted into a year; Conflict when it is already. */
  createAcceptance(acceptance: OfferAcceptance): Promise<void>;
  /** D63: a point's month accepted again (`version` one more than the stored one's, which must still
   *  be `expectedVersion`, absent counting as 1); Conflict otherwise. */
  replaceAcceptance(acceptance: OfferAcceptance, expectedVersion: number): Promise<void>;
  /** the security review's R6: the claim a request takes on a point's month before it accepts it, so that of
   *  parallel accepts of one month one writes and the others are refused before they write anything:
   *  true when taken (none stored, or one taken before `staleBefore` by a request that never released
   *  it), false when another request holds it. */
  claimMonth(claim: MonthClaim, staleBefore: string): Promise<boolean>;
  /** Gives the claim back (only if it is still `claim.token`'s). */
  releaseMonth(claim: MonthClaim): Promise<void>;
  /** The facility's accepted months. */
  acceptances(companyId: string, facilityId: string): Promise<OfferAcceptance[]>;
  /** What an accepted month's readings give now (D63: `now_ch4_t`, `rechecked_at`), written on it
   *  without touching the rest (an acceptance again meanwhile keeps its figures). NotFound when the
   *  month was never accepted. */
  recheckAcceptance(acceptance: OfferAcceptance): Promise<void>;
  /** The demo mines' simulators (demo-readings.ts): one per mine the demo seed made, none in a data
   *  folder it did not seed. */
  demoFeeds(): Promise<DemoFeed[]>;
  /** Writes the feed if its stored version is still `expectedVersion` (0: none stored); false otherwise. */
  putDemoFeed(feed: DemoFeed, expectedVersion: number): Promise<boolean>;
}

/** The demo mine's simulator as the local server runs it on (demo-readings.ts): written by the demo's
 *  seed, so it is the mark that the mine's readings are simulated; its seed, zone and first minute, and
 *  where it stands (the next minute, each sensor's drift and held value), moved on with each minute. */
export interface DemoFeed {
  company: string;
  facility: string;
  seed: number;
  zone: string;
  /** The simulation's first minute, UTC ms. */
  anchor: number;
  /** The next minute to make, UTC ms. */
  next: number;
  drift: number[];
  held: (number | null)[];
  updated_at: string;
  version: number;
}

/** the security review's R6: a request's hold on a point's month while it accepts it (monitoring/minutes/offers.ts). */
export interface MonthClaim {
  company: string;
  facility: string;
  point: string;
  month: string;
  /** The request's own id: only it releases the claim. */
  token: string;
  /** ISO instant it was taken: a claim its request never released is taken over after a while. */
  at: string;
}

/** D63: what an acceptance of a month put into a year: the calculation, its figures and who accepted them. */
interface AcceptedFigures {
  calculation: string;
  project: string;
  ch4_t: number;
  volume_thousand_m3: number;
  readings_sha256: string;
  accepted_at: string;
  accepted_by: string;
  reason: string;
}

/** D63: a month of a point accepted into a year before it was accepted again: what it held then. */
export interface AcceptedBefore extends AcceptedFigures {
  /** The calculation's version that held these figures (its next version holds the new ones). */
  calculation_version: number;
}

/** D63: a month of a point accepted into a year: the calculation made and what it held. */
export interface OfferAcceptance extends AcceptedFigures {
  company: string;
  facility: string;
  point: string;
  /** yyyy-MM. */
  month: string;
  /** D63: t CH4 the month's readings gave when readings that touch it last arrived (the consumer's
   *  recheck, accepted-changes.ts); absent until then. Its calculation keeps what was accepted. */
  now_ch4_t?: number;
  rechecked_at?: string;
  /** How many times the month was accepted (absent: once). */
  version?: number;
  /** why the month was accepted again (empty the first time). */
  again_reason?: string;
  /** the figures of each earlier acceptance, oldest first; their readings stay in the blob
   *  store under their SHA-256 (accepted-evidence.ts). */
  history?: AcceptedBefore[];
}

/** D65: an event of a facility's sensor as stored: threshold and stale events the detector finds in
 *  the minutes (domain/monitoring/derive/events.ts), forecast events the forecaster raises; the same id for the
 *  same (facility, sensor, kind, level, start) however often the minutes are read again (@core/monitoring-events). */
export interface SensorEvent {
  company: string;
  facility: string;
  id: string;
  sensor: string;
  kind: "threshold" | "stale" | "forecast" | "fault" | "suspect";
  /** null for a stale channel, a sensor fault and a suspect reading. */
  level: "pre_warning" | "warning" | "alarm" | null;
  /** The level's value, % vol; null for a stale channel. */
  threshold: number | null;
  /** ISO instants; end null while the event is open. */
  start: string;
  end: string | null;
  peak: number | null;
  peak_at: string | null;
  minutes_above: number;
  /** Forecast events: the horizon (minutes) and P(C(t+h) ≥ limit) that raised it; whether the reading
   *  at t+h did reach the limit (null until it is known). */
  forecast?: { horizon_min: number; probability: number; came_true: boolean | null };
  /** A sensor fault: its minutes set aside, out of range and jumps (minutes_above: both). */
  fault?: { range_minutes: number; jump_minutes: number };
  /** D102–D105: a reading questioned (@core/monitoring-suspect): its minutes [start, end) are «под сомнением»
   *  (minutes/doubt.ts); minutes_above counts them once closed. Answered with what was done (comment). */
  suspect?: SuspectDetail;
  acknowledged_by: string | null;
  acknowledged_at: string | null;
  comment: string;
  version: number;
}

export interface SensorEventRepository {
  /** The facility's events starting in [from, to) (ISO instants), by start. */
  listOfFacility(companyId: string, facilityId: string, from: string, to: string): Promise<SensorEvent[]>;
  get(companyId: string, facilityId: string, id: string, start: string): Promise<SensorEvent | undefined>;
  /** Writes the event (its version then expectedVersion + 1) if the stored version is still
   *  `expectedVersion` (0: none stored); false otherwise. */
  put(event: SensorEvent, expectedVersion: number): Promise<boolean>;
  /** Removes the event if its stored version is still `expectedVersion`; false otherwise. */
  remove(event: Pick<SensorEvent, "company" | "facility" | "id" | "start">, expectedVersion: number): Promise<boolean>;
  /** Removes the events whatever their stored versions (one already gone is no error), in writes of up
   *  to 25 each (DynamoDB's BatchWriteItem, whose deletes take no condition), not a write an event:
   *  the detector's removal of what the minutes no longer give, which removes an event at any version. */
  removeAll(events: readonly Pick<SensorEvent, "company" | "facility" | "id" | "start">[]): Promise<void>;
}

/** the forecast model a working's live tile runs at a horizon (one per working and
 *  horizon): the answer's shape (working, horizon in minutes, method, model version, the methane
 *  meter or null for the working's first by code, who bound it when) and whose it is. */
export type LiveModelBinding = z.output<typeof liveBindingSchema> & { company: string; facility: string };

/** the latest forecast of a working at a horizon, as the forecaster (domain/monitoring/
 *  forecaster.ts) computed it with the bound model from the latest minutes: the tile's forecast as the
 *  API shows it, and what it was computed from (the model, the meter, its minute and a digest of its rows). */
export interface StoredLiveForecast {
  company: string;
  facility: string;
  working: string;
  horizon: number;
  method: string;
  /** The model version it ran (the binding's). */
  model: string;
  /** The methane meter it forecasts (a sensor id). */
  sensor: string;
  /** The meter's minute it is issued at (UTC ms), null when the meter had no reading in the window. */
  issued: number | null;
  /** A digest of the rows it was computed from: the same rows are never computed again. */
  rows_key: string;
  computed_at: string;
  forecast: z.output<typeof liveTileSchema>["forecasts"][number];
}

export interface LiveBindingRepository {
  /** The facility's bindings, by working and horizon. */
  listOfFacility(companyId: string, facilityId: string): Promise<LiveModelBinding[]>;
  /** Replaces the working's binding at its horizon. */
  put(binding: LiveModelBinding): Promise<void>;
  /** Removes the binding and its stored forecast. */
  remove(companyId: string, facilityId: string, working: string, horizon: number): Promise<void>;
  /** The facility's latest forecasts, one per working and horizon. */
  forecastsOfFacility(companyId: string, facilityId: string): Promise<StoredLiveForecast[]>;
  /** Replaces the working's latest forecast at its horizon. */
  putForecast(forecast: StoredLiveForecast): Promise<void>;
}

/** the dispatcher's registration of a gassing (the safety rules, pp. 622–624): whom they
 *  informed, their comment, who registered it and when, and who closed it. Keyed by the gassing's id
 *  (its facility, its opening sensor and start), found again from the same minutes. the
 *  entry of the gassing book — its cause, type, losses, who cleared the gas and who investigated, the
 *  measures, the confirmations, and the gassing as found when last written (what a closed entry keeps).
 *  People by e-mail (who they are), named by their name now wherever shown. No expiry: kept for good. */
export interface GassingRegistration {
  company: string;
  /** The facility, then the core's gassing id: `{facility}.{sensor}.g.{start}`. */
  id: string;
  facility: string;
  start: string;
  /** The dispatcher's e-mail and when they registered it; "" on an entry the minutes made and no one
   *  registered yet (D89: a found gassing is a record from the minute it is found). */
  registered_by: string;
  registered_at: string;
  /** D89: when the readings first gave it (ISO); absent on an entry a registration made before. */
  found_at?: string;
  /** D89, D97: each later correction of the readings that moves the gassing's start, end or maximum, or
   *  removes it: the entry keeps `found` and adds this; a closed entry too (listed «после закрытия»). */
  corrections?: GassingCorrection[];
  /** D97: the last minute (ISO) of its meters' readings the record has read while the gassing was open:
   *  a later minute that raises it or ends it is the gassing lasting (followed), an earlier one rewritten
   *  is a correction. Absent on an entry kept before D97 (read as its end, or its maximum's minute). */
  seen_to?: string;
  /** D89: why a corrected entry is closed («ложное срабатывание: …»). */
  correction_reason?: string;
  /** when each addressee was notified and, where given, by whom (`{at, by?}`); null or absent:
   *  not notified. A tick kept before an earlier release (`true`) is read as notified at `registered_at`
   *  (gassing-entry.ts `noticesOf`, a migration on read: the stored tick is never deleted, and is
   *  replaced by its time at the entry's next write); `false` as not notified. */
  notified: Partial<Record<"chief_engineer" | "head_ab" | "head_section" | "rostekhnadzor", StoredNotice | boolean | null>>;
  comment: string;
  /** The book's fields: absent on a registration written before them. */
  cause?: string;
  type?: GassingType | null;
  /** null where never entered (printed «—», never «0,0»). */
  losses?: { development_m: number | null; coal_t: number | null };
  cleared_by?: string;
  /** when the gas was cleared and when work resumed (ISO); absent until given. */
  cleared_at?: string | null;
  resumed_at?: string | null;
  investigated_by?: string;
  measures?: string;
  confirmations?: Partial<Record<Duty, { by: string; at: string } | null>>;
  /** D88: what a sudden gassing was (an outburst, the sensor's fault, other), given at closing. */
  onset?: Onset | null;
  found?: FoundGassing;
  closed: boolean;
  closed_by: string | null;
  closed_at: string | null;
  version: number;
}

/** an addressee's notification as stored: when (ISO) and by whom (free text), if given. */
export interface StoredNotice {
  at: string;
  by?: string | null;
}

/** D89: a correction of the readings after a gassing was found: when, by which batches and
 *  whom, the gassing before (as found) and after (null: the readings give it no more). */
export interface GassingCorrection {
  at: string;
  batches: string[];
  /** The batches' sender (ReadingsBatch.sent_by); null where none is kept. */
  sent_by: string | null;
  /** D97: `start` absent on a correction kept before D97 (read as the entry's start). */
  before: GassingFigures;
  after: GassingFigures | null;
  /** D97: written after the entry was closed (absent before D97: read from `at` and `closed_at`). */
  after_closing?: boolean;
}

/** D97: a gassing's start, end (null: it lasts) and maximum, as a correction compares them. */
export interface GassingFigures {
  start?: string;
  end: string | null;
  max: number;
}

/** A gassing as the minutes gave it when its entry was last written. */
export interface FoundGassing {
  end: string | null;
  max: number;
  max_at: string;
  sensors: string[];
  limits: number[];
  working: string;
  /** Absent on an entry kept before gassings were grouped by section. */
  section?: string;
  /** each sensor's place in words, as `sensors`; absent on an entry kept before. */
  places?: string[];
  kind: "общее" | "местное";
  /** D88: a minute of it jumped or read past the span; absent on an entry kept before. */
  sudden?: boolean;
  /** D88: the span its maximum is past, % vol; null (or absent) within it. */
  over_span?: number | null;
}

export type GassingRegistrationRepository = CompanyObjects<GassingRegistration>;

/** an edition of the permissible methane concentrations an administrator confirmed, as stored (a new
 *  act and its values), kept with who and when; the editions before it stay for the years they held. */
export type StoredMethaneLimitEdition = Omit<z.output<typeof methaneLimitEditionSchema>, "valid_to" | "rows"> & {
  /** The first day it no longer holds (null: none named). */
  valid_to: string | null;
  rows: { place: MethanePlace; limit_pct: number; point: string | null }[];
  confirmed_by: string;
  confirmed_at: string;
};

export interface MethaneLimitEditionRepository {
  /** Every confirmed edition, by valid_from. */
  list(): Promise<StoredMethaneLimitEdition[]>;
  /** Refused (Conflict) when an edition from that day is stored. */
  create(edition: StoredMethaneLimitEdition): Promise<void>;
}
