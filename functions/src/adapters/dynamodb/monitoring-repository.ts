// The mine's readings (methodology D57): pushed batches (keys.readingsBatch) with their queue marks
// (keys.readingsQueued), and each sensor's readings of a UTC day packed in one item (keys.sensorDay):
// the instants' steps as varints and the values as scaled decimals (packed.ts), so a day of one-minute
// readings is a few KB, not 1 440 items.
import {
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import type {
  BatchReading,
  DemoFeed,
  ListedBatch,
  LiveBindingRepository,
  LiveModelBinding,
  MinuteReadings,
  MinutesHead,
  LiveHead,
  SensorHead,
  ForecastMeans,
  SensorMeans,
  StoredLiveForecast,
  OfferAcceptance,
  SensorDay,
  ReadingsBatch,
  SensorEvent,
  SensorEventRepository,
  MonitoringRepository,
} from "../../ports";
import { createHash } from "node:crypto";
import * as keys from "./keys";
import { putAtVersion, releaseClaim, takeClaim, unlessConditionFails } from "./conditions";
import { Conflict, NotFound } from "../../domain/errors";
import { getItem, putNew, putNewCommand, queryAll, queryPrefix, strip, stripAll } from "./items";
import { MINUTES_KEPT_DAYS } from "../../domain/monitoring/ingest/stored-readings";
import { packIds, packOffsets, packSteps, packValues, unpackIds, unpackOffsets, unpackSteps, unpackValues } from "./packed";

/** The most items one BatchWriteItem writes (DynamoDB's limit). */
const BATCH_WRITE_ITEMS = 25;
/** How many times a BatchWriteItem's unprocessed items are sent again before the write is an error. */
const BATCH_WRITE_ATTEMPTS = 8;
const BATCH_EXISTS = "Пакет показаний с таким идентификатором уже существует";
export const ACCEPTANCE_CHANGED = "Месяц только что приняли заново: обновите страницу";

/** A typed array's bytes, as a binary attribute holds them. */
export const bytesOf = (array: Uint16Array | Uint32Array | Float64Array) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
const copyBytes = (bytes: Uint8Array) => {
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  return out.buffer;
};

/** A sensor's day as stored: its offsets and values packed (packed.ts: `pt` the offsets' steps, `pv`
 *  the values as scaled decimals), about 2 bytes a minute reading where the raw arrays took 12. */
export const dayItem = (day: SensorDay) => ({
  ...keys.sensorDay(day.company, day.sensor, day.day),
  company: day.company,
  sensor: day.sensor,
  day: day.day,
  count: day.values.length,
  pt: packOffsets(day.offsets),
  pv: packValues(day.values),
  applied: day.applied,
  corrections: day.corrections,
  ...(day.compacted ? { compacted: true } : {}),
  version: day.version,
});

/** A sensor's day as read: packed (`pv`), or unpacked as written before packed.ts (`t` a Uint32 array of ms
 *  since the day's 00:00 UTC, `v` a Float64 array, both little-endian). */
export function dayOf(item: Record<string, unknown>): SensorDay {
  const packed = item.pv instanceof Uint8Array;
  const t = item.t as Uint8Array | undefined;
  const v = item.v as Uint8Array | undefined;
  return {
    company: String(item.company),
    sensor: String(item.sensor),
    day: String(item.day),
    offsets: packed ? unpackOffsets(item.pt as Uint8Array) : t && t.byteLength > 0 ? new Uint32Array(copyBytes(t)) : new Uint32Array(0),
    values: packed ? unpackValues(item.pv as Uint8Array) : v && v.byteLength > 0 ? new Float64Array(copyBytes(v)) : new Float64Array(0),
    applied: (item.applied ?? {}) as SensorDay["applied"],
    corrections: (item.corrections ?? []) as SensorDay["corrections"],
    ...(item.compacted === true ? { compacted: true } : {}),
    version: Number(item.version ?? 0),
  };
}

/** A facility's minute as stored (keys.facilityMinute), packed: its sensors' ids 16 bytes each
 *  (`ids`; `sensors`, the strings, when one is not a UUID), its values as scaled decimals (`pv`,
 *  packed.ts), and its sensor indices, offsets and batch indices (little-endian Uint16 arrays) only when
 *  they say something: a push of every sensor at the minute's start is reading k of sensor k at 0 ms
 *  by batch 0. 150 sensors' minute is about 2,9 KB (3 write units) where the arrays took 7,6 KB. */
export const minuteItem = (m: MinuteReadings) => {
  const ids = packIds(m.sensors);
  return {
    ...keys.facilityMinute(m.company, m.facility, m.day, m.minute),
    company: m.company,
    facility: m.facility,
    day: m.day,
    minute: m.minute,
    ...(ids ? { ids } : { sensors: m.sensors }),
    ...(m.sensor.every((s, k) => s === k) ? {} : { s: bytesOf(m.sensor) }),
    ...(m.offsets.every((t) => t === 0) ? {} : { t: bytesOf(m.offsets) }),
    ...(m.batch.every((b) => b === 0) ? {} : { b: bytesOf(m.batch) }),
    pv: packValues(m.values),
    batches: m.batches,
    corrections: m.corrections,
    version: m.version,
    expires_at: movedMarkExpiry(m.day),
  };
};

/** A facility's log of its minute writes as stored (keys.minutesHead). */
export const minutesHeadItem = (head: MinutesHead) => ({ ...keys.minutesHead(head.company, head.facility), ...head });
export const minutesHeadOf = (item: Record<string, unknown>): MinutesHead => ({
  company: String(item.company),
  facility: String(item.facility),
  written: (item.written ?? []) as string[],
  version: Number(item.version ?? 0),
});

/** A facility's sensors' heads as stored (keys.liveHead): each sensor's latest instant and value, and its
 *  gaps packed (`g`, packValues: a gateway's steady minute is one byte a gap). The gaps were a list of
 *  numbers, 30 a sensor: a 150-sensor mine's item was 79 KB (24 KB packed), rewritten at each of its
 *  pushes, 953 B of the 3 207 written a reading late in the day on the holding bench (*  docs/performance.md).
 *  A head stored as a list before is read as it is. */
export const liveHeadItem = (head: LiveHead) => ({
  ...keys.liveHead(head.company, head.facility),
  company: head.company,
  facility: head.facility,
  sensors: Object.fromEntries(
    Object.entries(head.sensors).map(([id, s]) => [id, { at: s.at, value: s.value, g: packValues(Float64Array.from(s.gaps)) }]),
  ),
  version: head.version,
});
export const liveHeadOf = (item: Record<string, unknown>): LiveHead => ({
  company: String(item.company),
  facility: String(item.facility),
  sensors: Object.fromEntries(
    Object.entries((item.sensors ?? {}) as Record<string, { at: number; value: number; g?: Uint8Array; gaps?: number[] }>).map(
      ([id, s]): [string, SensorHead] => [
        id,
        { at: Number(s.at), value: Number(s.value), gaps: s.g ? Array.from(unpackValues(s.g)) : (s.gaps ?? []).map(Number) },
      ],
    ),
  ),
  version: Number(item.version ?? 0),
});

/** A bound working's kept minute means as stored (keys.forecastMeans): each sensor's means packed (none
 *  stored for a sensor without a reading), and its first minute, latest instant and value and the
 *  instant read up to together (packed too: a value may be any Float64, the instant −∞). */
export const forecastMeansItem = (m: ForecastMeans) => ({
  ...keys.forecastMeans(m.company, m.facility, m.working),
  company: m.company,
  facility: m.facility,
  working: m.working,
  sensors: Object.fromEntries(
    Object.entries(m.sensors).map(([id, s]) => [
      id,
      { h: packValues(Float64Array.of(s.from, s.at, s.value, s.checked)), ...(s.means.length > 0 ? { pv: packValues(s.means) } : {}) },
    ]),
  ),
  version: m.version,
});
export const forecastMeansOf = (item: Record<string, unknown>): ForecastMeans => ({
  company: String(item.company),
  facility: String(item.facility),
  working: String(item.working),
  sensors: Object.fromEntries(
    Object.entries((item.sensors ?? {}) as Record<string, { h: Uint8Array; pv?: Uint8Array }>).map(([id, s]): [string, SensorMeans] => {
      const [from, at, value, checked] = unpackValues(s.h);
      return [id, { from, at, value, checked, means: s.pv ? unpackValues(s.pv) : new Float64Array(0) }];
    }),
  ),
  version: Number(item.version ?? 0),
});

/** The packed readings' bytes a push keeps in the table at most: a write unit a KB ($0,625 per million)
 *  costs what an S3 PUT ($5 per million) does at 8 KB, and reading it back less than a GET. */
const TABLE_READINGS_BYTES = 8 * 1024;

/** A push's readings as the table keeps them (keys.readingsBatchReadings), packed: its sensors named
 *  by their set's key (`set`: a gateway pushes the same sensors each minute, so their ids are stored once,
 *  sensorSetItem), each reading's sensor index in the set (`s`, steps as varints; left out when reading
 *  k is sensor k's), its instant (`t`, steps from the one before: a push of one instant is a byte a
 *  reading) and its value (`pv`, packed.ts: exact to the bit). 150 sensors' minute is about 0,5 KB (a
 *  write unit) where its JSON blob is 9,5 KB and an S3 PUT. Undefined when the packed readings pass
 *  TABLE_READINGS_BYTES (the caller keeps them as a blob). */
function batchReadingsItems(company: string, batch: string, readings: readonly BatchReading[]) {
  const index = new Map<string, number>();
  const sensor = readings.map(([id]) => {
    let k = index.get(id);
    if (k === undefined) index.set(id, (k = index.size));
    return k;
  });
  const sensors = [...index.keys()];
  const fields = {
    ...(sensor.every((s, k) => s === k) ? {} : { s: packSteps(sensor) }),
    t: packSteps(readings.map(([, t]) => t)),
    pv: packValues(Float64Array.from(readings, ([, , value]) => value)),
  };
  if ((fields.s?.byteLength ?? 0) + fields.t.byteLength + fields.pv.byteLength > TABLE_READINGS_BYTES) return undefined;
  const set = sensorSetItem(company, sensors);
  return { readings: { ...keys.readingsBatchReadings(company, batch), count: readings.length, set: set.key, ...fields }, set };
}

/** A set of sensors as batches' readings name it (keys.readingsSensorSet): its ids 16 bytes each
 *  (`ids`; `sensors`, the strings, when one is not a UUID), under the key of their SHA-256. */
function sensorSetItem(company: string, sensors: readonly string[]) {
  const key = createHash("sha256").update(sensors.join("\n")).digest("hex").slice(0, 32);
  const ids = packIds(sensors);
  return { key, item: { ...keys.readingsSensorSet(company, key), ...(ids ? { ids } : { sensors }) } };
}

const sensorsOfSet = (item: Record<string, unknown>) =>
  item.ids instanceof Uint8Array ? unpackIds(item.ids) : ((item.sensors ?? []) as string[]);

export function batchReadingsOf(item: Record<string, unknown>, sensors: readonly string[]): BatchReading[] {
  const times = unpackSteps(item.t as Uint8Array);
  const values = unpackValues(item.pv as Uint8Array);
  const sensor = item.s instanceof Uint8Array ? unpackSteps(item.s) : undefined;
  return times.map((t, k) => [sensors[sensor ? sensor[k] : k], t, values[k]]);
}

/** The sensor sets an adapter has written or read, by company and key (a set never changes): a
 *  gateway's pushes each minute name the same set, written once and read once a process. Let go past
 *  SETS_KEPT. */
const SETS_KEPT = 1_000;
function sensorSets(store: Parameters<typeof tableReadings>[0]) {
  const known = new Map<string, string[]>();
  const keep = (at: string, sensors: string[]) => {
    if (known.size >= SETS_KEPT) known.clear();
    known.set(at, sensors);
    return sensors;
  };
  return {
    async put(companyId: string, set: { key: string; item: Record<string, unknown> }) {
      const at = `${companyId}#${set.key}`;
      if (known.has(at)) return;
      if (!(await store.get(keys.readingsSensorSet(companyId, set.key)))) await store.put(set.item);
      keep(at, sensorsOfSet(set.item));
    },
    async sensors(companyId: string, key: string): Promise<string[] | undefined> {
      const at = `${companyId}#${key}`;
      const kept = known.get(at);
      if (kept) return kept;
      const item = await store.get(keys.readingsSensorSet(companyId, key));
      return item ? keep(at, sensorsOfSet(item)) : undefined;
    },
  };
}

/** A push's readings kept in the table and read back (MonitoringRepository.putBatchReadings,
 *  batchReadings) over an item store: the DynamoDB table or the memory one. */
export function tableReadings(store: {
  get: (key: { PK: string; SK: string }) => Promise<Record<string, unknown> | undefined>;
  put: (item: Record<string, unknown>) => Promise<void>;
}): Pick<MonitoringRepository, "putBatchReadings" | "batchReadings"> {
  const sets = sensorSets(store);
  return {
    async putBatchReadings(companyId, batchId, readings) {
      const items = batchReadingsItems(companyId, batchId, readings);
      if (!items) return false;
      // The set first: readings never name a set that is not stored.
      await sets.put(companyId, items.set);
      await store.put(items.readings);
      return true;
    },
    async batchReadings(companyId, batchId) {
      const item = await store.get(keys.readingsBatchReadings(companyId, batchId));
      if (!item) return undefined;
      const sensors = await sets.sensors(companyId, String(item.set));
      if (!sensors) throw new Error(`the sensor set ${String(item.set)} of batch ${batchId} is not stored`);
      return batchReadingsOf(item, sensors);
    },
  };
}

/** When a facility's minutes of a day and the marks beside them expire (DynamoDB's TTL, seconds):
 *  MINUTES_KEPT_DAYS after the day begins, long after it is compacted (a day and an hour after its
 *  end), when nothing reads them any more; the compaction looks back as far. Deleting them at the
 *  compaction cost what writing them did; TTL's deletes cost nothing. */
export const movedMarkExpiry = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + MINUTES_KEPT_DAYS * 86_400;

/** A facility's minute as read: packed (`pv`), or unpacked as written before packed.ts (`sensors`, and `s`,
 *  `t`, `v`, `b` its arrays whole, 14 bytes a reading). */
export function minuteOf(item: Record<string, unknown>): MinuteReadings {
  const u16 = (bytes: unknown) => {
    const b = bytes as Uint8Array | undefined;
    return b && b.byteLength > 0 ? new Uint16Array(copyBytes(b)) : new Uint16Array(0);
  };
  const packed = item.pv instanceof Uint8Array;
  const v = item.v as Uint8Array | undefined;
  const values = packed
    ? unpackValues(item.pv as Uint8Array)
    : v && v.byteLength > 0
      ? new Float64Array(copyBytes(v))
      : new Float64Array(0);
  // A packed minute leaves out an array that says nothing: sensor k's reading k, at 0 ms, by batch 0.
  const zeros = (bytes: unknown) => (packed && bytes === undefined ? new Uint16Array(values.length) : u16(bytes));
  const counting = (bytes: unknown) => {
    if (!packed || bytes !== undefined) return u16(bytes);
    const k = new Uint16Array(values.length);
    for (let i = 0; i < k.length; i++) k[i] = i;
    return k;
  };
  return {
    company: String(item.company),
    facility: String(item.facility),
    day: String(item.day),
    minute: String(item.minute),
    sensors: item.ids instanceof Uint8Array ? unpackIds(item.ids) : ((item.sensors ?? []) as string[]),
    sensor: counting(item.s),
    offsets: zeros(item.t),
    values,
    batch: zeros(item.b),
    batches: (item.batches ?? []) as MinuteReadings["batches"],
    corrections: (item.corrections ?? []) as MinuteReadings["corrections"],
    version: Number(item.version ?? 0),
  };
}

/** The demo mine's feed as stored: its drifts and held values as Float64 binary attributes (NaN for none
 *  held), read back to the bit whatever their magnitude (a number attribute keeps 38 digits in a range). */
export const demoFeedItem = (feed: DemoFeed) => ({
  ...keys.demoFeed(feed.company, feed.facility),
  ...feed,
  drift: bytesOf(Float64Array.from(feed.drift)),
  held: bytesOf(Float64Array.from(feed.held, (v) => v ?? Number.NaN)),
});

export function demoFeedOf(item: Record<string, unknown>): DemoFeed {
  const floats = (bytes: unknown) => Array.from(new Float64Array(copyBytes(bytes as Uint8Array)));
  return {
    ...strip<DemoFeed>(item)!,
    drift: floats(item.drift),
    held: floats(item.held).map((v) => (Number.isNaN(v) ? null : v)),
  };
}

/** A batch's line in its facility's list of loads (keys.readingsBatchListed): the batch without its
 *  refused lines, written beside its item each time that is written. */
export const batchListedItem = ({ refused: _refused, ...listed }: ReadingsBatch) => ({
  ...keys.readingsBatchListed(listed.company, listed.facility, listed.received_at, listed.batch),
  ...listed,
});

/** A batch's mark in the table's queue (keys.readingsQueued): its company, its id and its facility
 *  (the local consumer's lane). */
export const queueMarkItem = (batch: Pick<ReadingsBatch, "received_at" | "company" | "batch" | "facility">) => ({
  ...keys.readingsQueued(batch.received_at, batch.company, batch.batch),
  company: batch.company,
  batch: batch.batch,
  facility: batch.facility,
});

/** A queue mark as read: a mark written before the facility was kept in it has none. */
export const queueMarkOf = (item: Record<string, unknown>): { company: string; batch: string; facility?: string } => ({
  company: String(item.company),
  batch: String(item.batch),
  ...(item.facility === undefined ? {} : { facility: String(item.facility) }),
});

export function dynamoMonitoring(doc: DynamoDBDocumentClient, table: string): MonitoringRepository {
  const readingsInTable = tableReadings({
    get: async (key) => (await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item,
    put: async (item) => void (await doc.send(new PutCommand({ TableName: table, Item: item }))),
  });
  const markQueued: MonitoringRepository["markQueued"] = async (batch, queued) => {
    if (queued) await doc.send(new PutCommand({ TableName: table, Item: queueMarkItem(batch) }));
    else await doc.send(new DeleteCommand({ TableName: table, Key: keys.readingsQueued(batch.received_at, batch.company, batch.batch) }));
  };
  return {
    async createBatch(batch) {
      // The batch's item first: a queue mark never points at nothing. A crash between the two leaves a
      // batch never answered 202 (the answer waits for both) and never listed, which nothing reads.
      await putNew(doc, table, { ...keys.readingsBatch(batch.company, batch.batch), ...batch }, BATCH_EXISTS);
      if (batch.queue_mark !== false) await markQueued(batch, true);
    },
    async listBatch(batch) {
      await unlessConditionFails(doc.send(putNewCommand(table, batchListedItem(batch))));
    },
    markQueued,
    getBatch: (companyId, batchId) => getItem<ReadingsBatch>(doc, table, keys.readingsBatch(companyId, batchId)),
    ...readingsInTable,
    async finishBatch(batch) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...keys.readingsBatch(batch.company, batch.batch), ...batch } }));
      await doc.send(new PutCommand({ TableName: table, Item: batchListedItem(batch) }));
      if (batch.queue_mark !== false) await markQueued(batch, false);
    },
    async updateBatch(batch) {
      await doc.send(new PutCommand({ TableName: table, Item: { ...keys.readingsBatch(batch.company, batch.batch), ...batch } }));
      await doc.send(new PutCommand({ TableName: table, Item: batchListedItem(batch) }));
    },
    async batchesOfFacility(companyId, facilityId, limit) {
      const { PK, SKPrefix } = keys.readingsBatchesOfFacility(companyId, facilityId);
      const out = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "PK = :pk AND begins_with(SK, :sk)",
          ExpressionAttributeValues: { ":pk": PK, ":sk": SKPrefix },
          ScanIndexForward: false,
          Limit: limit,
          ConsistentRead: true,
        }),
      );
      return stripAll<ListedBatch>(out.Items ?? []);
    },
    async queued(limit) {
      const out = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "PK = :pk",
          ExpressionAttributeValues: { ":pk": keys.READINGS_QUEUE_PK },
          ConsistentRead: true,
          Limit: limit,
        }),
      );
      return (out.Items ?? []).map(queueMarkOf);
    },
    async getDay(companyId, sensorId, day) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.sensorDay(companyId, sensorId, day), ConsistentRead: true }));
      return out.Item ? dayOf(out.Item) : undefined;
    },
    async getDays(companyId, sensorId, days) {
      const found: SensorDay[] = [];
      for (let i = 0; i < days.length; i += 100) {
        let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
          [table]: { Keys: days.slice(i, i + 100).map((day) => keys.sensorDay(companyId, sensorId, day)), ConsistentRead: true },
        };
        while (request && Object.keys(request).length > 0) {
          const out = await doc.send(new BatchGetCommand({ RequestItems: request }));
          for (const item of out.Responses?.[table] ?? []) found.push(dayOf(item));
          request = out.UnprocessedKeys as typeof request;
        }
      }
      return found.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    },
    async createAcceptance(acceptance) {
      await putNew(
        doc,
        table,
        { ...keys.offerAcceptance(acceptance.company, acceptance.facility, acceptance.point, acceptance.month), ...acceptance },
        "Этот месяц уже принят",
      );
    },
    async replaceAcceptance(acceptance, expectedVersion) {
      const key = keys.offerAcceptance(acceptance.company, acceptance.facility, acceptance.point, acceptance.month);
      const written = await unlessConditionFails(
        doc.send(
          new PutCommand({
            TableName: table,
            Item: { ...key, ...acceptance },
            ConditionExpression:
              expectedVersion === 1 ? "attribute_exists(PK) AND (attribute_not_exists(version) OR version = :v)" : "version = :v",
            ExpressionAttributeValues: { ":v": expectedVersion },
          }),
        ),
      );
      if (!written) throw new Conflict(ACCEPTANCE_CHANGED);
    },
    claimMonth(claim, staleBefore) {
      return takeClaim(doc, table, keys.offerClaim(claim.company, claim.facility, claim.point, claim.month), claim, staleBefore);
    },
    releaseMonth(claim) {
      return releaseClaim(doc, table, keys.offerClaim(claim.company, claim.facility, claim.point, claim.month), claim);
    },
    async acceptances(companyId, facilityId) {
      return stripAll<OfferAcceptance>(
        await queryPrefix(doc, table, keys.acceptancesOfFacility(companyId, facilityId), { consistentRead: true }),
      );
    },
    async recheckAcceptance(acceptance) {
      const key = keys.offerAcceptance(acceptance.company, acceptance.facility, acceptance.point, acceptance.month);
      const written = await unlessConditionFails(
        doc.send(
          new UpdateCommand({
            TableName: table,
            Key: key,
            UpdateExpression: "SET now_ch4_t = :now, rechecked_at = :at",
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeValues: { ":now": acceptance.now_ch4_t ?? null, ":at": acceptance.rechecked_at ?? null },
          }),
        ),
      );
      if (!written) throw new NotFound("Принятый месяц не найден");
    },
    async demoFeeds() {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": keys.DEMO_FEED_PK },
        ConsistentRead: true,
      });
      return items.map(demoFeedOf);
    },
    putDemoFeed(feed, expectedVersion) {
      return unlessConditionFails(putAtVersion(doc, table, demoFeedItem({ ...feed, version: expectedVersion + 1 }), expectedVersion));
    },
    putDay(day, expectedVersion) {
      return unlessConditionFails(putAtVersion(doc, table, dayItem({ ...day, version: expectedVersion + 1 }), expectedVersion));
    },
    async getMinute(companyId, facilityId, day, minute) {
      const key = keys.facilityMinute(companyId, facilityId, day, minute);
      const out = await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
      return out.Item ? minuteOf(out.Item) : undefined;
    },
    putMinute(minute, expectedVersion) {
      return unlessConditionFails(putAtVersion(doc, table, minuteItem({ ...minute, version: expectedVersion + 1 }), expectedVersion));
    },
    async minutesOf(companyId, facilityId, day, from = "00:00", to = "23:59") {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
        ExpressionAttributeValues: {
          ":pk": keys.facilityMinutesOfDay(companyId, facilityId, day),
          ":from": `MIN#${from}`,
          ":to": `MIN#${to}`,
        },
        ConsistentRead: true,
      });
      return items.map(minuteOf);
    },
    async getMinutesHead(companyId, facilityId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.minutesHead(companyId, facilityId), ConsistentRead: true }));
      return out.Item ? minutesHeadOf(out.Item) : undefined;
    },
    putMinutesHead(head, expectedVersion) {
      return unlessConditionFails(putAtVersion(doc, table, minutesHeadItem({ ...head, version: expectedVersion + 1 }), expectedVersion));
    },
    async getLiveHead(companyId, facilityId) {
      const out = await doc.send(new GetCommand({ TableName: table, Key: keys.liveHead(companyId, facilityId), ConsistentRead: true }));
      return out.Item ? liveHeadOf(out.Item) : undefined;
    },
    putLiveHead(head, expectedVersion) {
      return unlessConditionFails(putAtVersion(doc, table, liveHeadItem({ ...head, version: expectedVersion + 1 }), expectedVersion));
    },
    async getForecastMeans(companyId, facilityId, working) {
      const out = await doc.send(
        new GetCommand({ TableName: table, Key: keys.forecastMeans(companyId, facilityId, working), ConsistentRead: true }),
      );
      return out.Item ? forecastMeansOf(out.Item) : undefined;
    },
    putForecastMeans(means, expectedVersion) {
      return unlessConditionFails(putAtVersion(doc, table, forecastMeansItem({ ...means, version: expectedVersion + 1 }), expectedVersion));
    },
    async openDayMoved(companyId, facilityId, day) {
      const out = await doc.send(
        new GetCommand({ TableName: table, Key: keys.openDayMoved(companyId, facilityId, day), ConsistentRead: true }),
      );
      return out.Item !== undefined;
    },
    async markOpenDayMoved(companyId, facilityId, day) {
      await doc.send(
        new PutCommand({ TableName: table, Item: { ...keys.openDayMoved(companyId, facilityId, day), expires_at: movedMarkExpiry(day) } }),
      );
    },
    async hasMinutes(companyId, facilityId, day) {
      // The day's first item from its COMPACTED mark on: the mark, a minute (MIN#…, sorted after it) or
      // nothing. Minutes after the mark wait for their expiry and are not the compaction's any more.
      const out = await doc.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "PK = :pk AND SK BETWEEN :mark AND :last",
          ExpressionAttributeValues: {
            ":pk": keys.facilityMinutesOfDay(companyId, facilityId, day),
            ":mark": keys.minutesCompacted(companyId, facilityId, day).SK,
            ":last": "MIN#~",
          },
          ProjectionExpression: "SK",
          Limit: 1,
        }),
      );
      return String(out.Items?.[0]?.SK ?? "").startsWith("MIN#");
    },
    async removeMinutes(companyId, facilityId, day) {
      const partition = keys.facilityMinutesOfDay(companyId, facilityId, day);
      // Minutes written before they carried an expiry (by the code before) are deleted; the others
      // are left to it. An eventually consistent read of the day's minutes, no write for most days.
      const unexpiring = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :minute)",
        FilterExpression: "attribute_not_exists(expires_at)",
        ExpressionAttributeValues: { ":pk": partition, ":minute": "MIN#" },
        ProjectionExpression: "PK, SK",
      });
      for (const key of unexpiring) await doc.send(new DeleteCommand({ TableName: table, Key: { PK: key.PK, SK: key.SK } }));
      await doc.send(
        new PutCommand({
          TableName: table,
          Item: { ...keys.minutesCompacted(companyId, facilityId, day), expires_at: movedMarkExpiry(day) },
        }),
      );
    },
  };
}

/** D65: a facility's events, one partition sorted by start (keys.sensorEvent). */
export function dynamoSensorEvents(doc: DynamoDBDocumentClient, table: string): SensorEventRepository {
  return {
    async listOfFacility(companyId, facilityId, from, to) {
      const items = await queryAll(doc, {
        TableName: table,
        KeyConditionExpression: "PK = :pk AND SK BETWEEN :from AND :to",
        // «EV#{to}» sorts before every event starting at `to` (their SK goes on with «#»).
        ExpressionAttributeValues: {
          ":pk": keys.sensorEventsOfFacility(companyId, facilityId),
          ":from": `EV#${from}`,
          ":to": `EV#${to}`,
        },
        ConsistentRead: true,
      });
      return stripAll<SensorEvent>(items);
    },
    async get(companyId, facilityId, id, start) {
      const out = await doc.send(
        new GetCommand({ TableName: table, Key: keys.sensorEvent(companyId, facilityId, start, id), ConsistentRead: true }),
      );
      return strip<SensorEvent>(out.Item);
    },
    put(event, expectedVersion) {
      return unlessConditionFails(
        putAtVersion(
          doc,
          table,
          { ...keys.sensorEvent(event.company, event.facility, event.start, event.id), ...event, version: expectedVersion + 1 },
          expectedVersion,
        ),
      );
    },
    remove(event, expectedVersion) {
      return unlessConditionFails(
        doc.send(
          new DeleteCommand({
            TableName: table,
            Key: keys.sensorEvent(event.company, event.facility, event.start, event.id),
            ConditionExpression: "version = :v",
            ExpressionAttributeValues: { ":v": expectedVersion },
          }),
        ),
      );
    },
    async removeAll(events) {
      for (let i = 0; i < events.length; i += BATCH_WRITE_ITEMS) {
        let requests: Record<string, unknown>[] | undefined = events
          .slice(i, i + BATCH_WRITE_ITEMS)
          .map((event) => ({ DeleteRequest: { Key: keys.sensorEvent(event.company, event.facility, event.start, event.id) } }));
        // What DynamoDB left unprocessed (throttled) is sent again, after a pause growing each time.
        for (let attempt = 0; requests && requests.length > 0; attempt++) {
          if (attempt === BATCH_WRITE_ATTEMPTS) throw new Error(`${requests.length} sensor events left unremoved by DynamoDB`);
          if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 25 * 2 ** attempt)));
          const out: BatchWriteCommandOutput = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
          requests = out.UnprocessedItems?.[table];
        }
      }
    },
  };
}

/** the live tiles' forecast models, one item per working and horizon (keys.liveBinding),
 *  and the latest forecast of each (keys.liveForecast): two kinds of item kept alike. */
export function dynamoLiveBindings(doc: DynamoDBDocumentClient, table: string): LiveBindingRepository {
  /** A kind of the facility's items, one per working and horizon: read all by the facility's
   *  prefix, each put whole at its key. */
  const atHorizons = <T extends { company: string; facility: string; horizon: number; working: string }>(
    key: (companyId: string, facilityId: string, horizon: number, working: string) => Record<string, string>,
    ofFacility: (companyId: string, facilityId: string) => { PK: string; SKPrefix: string },
  ) => ({
    list: async (companyId: string, facilityId: string) =>
      stripAll<T>(await queryPrefix(doc, table, ofFacility(companyId, facilityId), { consistentRead: true })),
    put: async (item: T) => {
      await doc.send(
        new PutCommand({ TableName: table, Item: { ...key(item.company, item.facility, item.horizon, item.working), ...item } }),
      );
    },
  });
  const bindings = atHorizons<LiveModelBinding>(keys.liveBinding, keys.liveBindingsOfFacility);
  const forecasts = atHorizons<StoredLiveForecast>(keys.liveForecast, keys.liveForecastsOfFacility);
  return {
    listOfFacility: bindings.list,
    put: bindings.put,
    async remove(companyId, facilityId, working, horizon) {
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.liveBinding(companyId, facilityId, horizon, working) }));
      await doc.send(new DeleteCommand({ TableName: table, Key: keys.liveForecast(companyId, facilityId, horizon, working) }));
    },
    forecastsOfFacility: forecasts.list,
    putForecast: forecasts.put,
  };
}
