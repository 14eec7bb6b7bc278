// A push of a mine's readings (methodology D57): read line by line — a JSON list or a CSV `sensor;t;value`
// in UTF-8 or Windows-1251 — each line's sensor found by its code in the facility's register, its time
// an ISO 8601 instant (at most 5 minutes ahead of the server's clock), its value a number; a bad line is
// refused with its number and the reason in Russian while the others are kept. The batch is stored
// durably (its readings as a blob, its item and queue mark) before the answer, then applied by the
// consumer (consumer.ts), idempotent and in any order.
import { createHash } from "node:crypto";
import { CsvEncodingError, decodeCsvBytes } from "@core/csv";
import { readTypedNumber } from "@core/typed-numbers";
import { ruDate } from "@core/dates";
import { instantOfWallTime, isoDateIn, zoneOf } from "@core/company-clock";
import { SENSOR_KINDS, possibleValue } from "@core/monitoring";
import { formatNumber } from "../../forecast/russian-numbers";
import { registerAt } from "./register";
import { facilityRegister } from "./kept-register";
import type { Actor, Deps } from "../../context";
import { getFacility } from "../../company/facilities";
import { surnameInitials, UNNAMED_PERSON } from "../../person-name";
import { Conflict, Forbidden, Invalid, invalidAt, Unprocessable } from "../../errors";
import { idOf, newId } from "../../ids";
import type { BatchReading, ListedBatch, Sensor, ReadingsBatch } from "../../../ports";
import { LIMITS } from "../../../contract/schemas/limits";
import { EMPTY_FILE_MESSAGE, UNDECODABLE_LINE, csvLineRecords, encodingMessage, tooOldMessage } from "./dispatch-file";

export interface ParsedReading {
  line: number;
  sensor: string;
  t: number;
  value: number;
}

export interface Refusal {
  line: number;
  reason: string;
}

/** Where a batch's accepted readings are kept as a blob, `[[sensor id, ms since the epoch, value], …]`:
 *  every batch stored before its readings were kept in the table, a push too large for it
 *  (MonitoringRepository.putBatchReadings), and the reconciliation's fill. */
export const batchBlobKey = (company: string, batch: string) => `telemetry/batches/${company}/${batch}.json`;

/** A batch's readings as pushed, wherever they are kept (`readings_in`: the table, else its blob);
 *  undefined when they are not found. */
export async function batchReadings(
  deps: Pick<Deps, "repos" | "blobs">,
  batch: Pick<ReadingsBatch, "company" | "batch" | "readings_in">,
): Promise<BatchReading[] | undefined> {
  if (batch.readings_in === "table") return deps.repos.monitoring.batchReadings(batch.company, batch.batch);
  const blob = await deps.blobs.get(batchBlobKey(batch.company, batch.batch));
  return blob ? (JSON.parse(new TextDecoder().decode(blob.body)) as BatchReading[]) : undefined;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
export const CSV_HEADER_MESSAGE = "Ожидается заголовок «sensor;t;value»: код датчика, время ISO 8601 и значение";
export const EMPTY_MESSAGE = "Пустой запрос: нет ни одного показания";

/** A sensor of the register with the instants its service covers, `from` ≤ t < `to` (ms): its register's
 *  dates as whole days on the company's clock (sensor-data.ts counts its minutes so), and a retired
 *  sensor's no later than its last change (the retirement or after), so a gateway still sending on a
 *  channel retired today hears so at once. */
interface Serving {
  sensor: Sensor;
  from: number;
  to: number;
}

/** The register by code (case aside), each entry with its time in service: what sensorAt reads. */
export interface SensorIndex {
  zone: string;
  byCode: Map<string, Serving[]>;
}

const midnight = (date: string, zone: string) => {
  const [y, m, d] = date.split("-").map(Number);
  return instantOfWallTime(y, m, d, 0, 0, zone);
};

/** The register indexed for sensorAt; `zone` the company's clock its dates are days of. */
export function sensorIndex(sensors: readonly Sensor[], zone: string): SensorIndex {
  const byCode = new Map<string, Serving[]>();
  for (const sensor of sensors) {
    const code = sensor.code.toLocaleLowerCase("ru");
    const from = sensor.in_service_from ? midnight(sensor.in_service_from, zone) : Number.NEGATIVE_INFINITY;
    let to = sensor.in_service_to ? midnight(sensor.in_service_to, zone) + 86_400_000 : Number.POSITIVE_INFINITY;
    if (!sensor.is_active) to = Math.min(to, Date.parse(sensor.updated_at) + 1);
    byCode.set(code, [...(byCode.get(code) ?? []), { sensor, from, to }]);
  }
  return { zone, byCode };
}

/** The sensor of `code` in service at `t` (of the register's entries with that code, case aside), or
 *  why a reading of it at `t` is refused: no such code, or none of them in service then (a
 *  retired channel is told so, not stored and ignored). */
export function sensorAt(index: SensorIndex, code: string, t: number): Sensor | string {
  const name = code.trim().slice(0, 40);
  const candidates = index.byCode.get(code.trim().toLocaleLowerCase("ru"));
  if (!candidates) return `датчик «${name}» не найден в реестре датчиков площадки`;
  const serving = candidates.find((c) => c.from <= t && t < c.to);
  if (serving) return serving.sensor;
  const date = isoDateIn(new Date(t), index.zone);
  if (candidates.every((c) => !c.sensor.is_active)) {
    const ends = candidates.map((c) => c.sensor.in_service_to).filter((d): d is string => !!d);
    const last = ends.length > 0 ? ends.reduce((x, y) => (x > y ? x : y)) : undefined;
    return `датчик «${name}» выведен из эксплуатации${last ? ` ${ruDate(last)}` : ""}: его показания не принимаются`;
  }
  if (candidates.every((c) => t < c.from)) {
    const first = candidates.map((c) => c.sensor.in_service_from as string).reduce((x, y) => (x < y ? x : y));
    return `датчик «${name}» введен в эксплуатацию ${ruDate(first)}: показание от ${ruDate(date)} раньше`;
  }
  return `датчик «${name}» не был в эксплуатации ${ruDate(date)}`;
}

/** The earliest instant a reading may carry, given the batch's time (LIMITS.monitoring.pastMonths before
 *  it): a reading decades old would cost the consumer days to write and merge (R1). */
export function oldestReading(now: number): number {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - LIMITS.monitoring.pastMonths);
  return date.getTime();
}

/** Why `value` of `sensor` at `t` is refused, or nothing: a number no meter of its kind (as the register
 *  had it at t) sends (SensorKindRule.possible). A value merely past the meter's span is kept: D58
 *  flags it. */
export function impossibleValue(sensor: Sensor, t: number, value: number, written: string): string | undefined {
  const kind = sensor.revisions.some((r) => r.kind !== sensor.kind) ? registerAt(sensor, t).kind : sensor.kind;
  if (possibleValue(kind, value)) return undefined;
  const { unit, possible } = SENSOR_KINDS[kind];
  return `значение ${written.trim().slice(0, 40)} невозможно для датчика «${sensor.code}» (${unit}): допустимо от ${formatNumber(possible.min, 0)} до ${formatNumber(possible.max, 0)}`;
}

/** One line's reading, or why it is refused. */
function readLine(
  line: number,
  code: unknown,
  time: unknown,
  value: unknown,
  index: SensorIndex,
  now: number,
  oldest: number,
): ParsedReading | Refusal {
  if (typeof code !== "string" || code.trim() === "") return { line, reason: "не указан код датчика" };
  if (typeof time !== "string" || !ISO_INSTANT.test(time.trim())) {
    return { line, reason: `время «${String(time ?? "").slice(0, 40)}» не в формате ISO 8601 с часовым поясом (2026-03-01T05:00:00Z)` };
  }
  const t = Date.parse(time.trim());
  if (Number.isNaN(t)) return { line, reason: `время «${time.slice(0, 40)}» не существует` };
  if (t > now + LIMITS.monitoring.futureMinutes * 60_000) {
    return { line, reason: `время ${time.trim()} позже текущего более чем на ${LIMITS.monitoring.futureMinutes} минут` };
  }
  if (t < oldest) return { line, reason: tooOldMessage(time.trim(), oldest) };
  let number: number;
  if (typeof value === "number") number = value;
  else if (typeof value === "string") {
    const read = readTypedNumber(value);
    if (!read.ok) return { line, reason: `значение «${value.slice(0, 40)}» не число` };
    number = read.value;
  } else return { line, reason: "значение не число" };
  if (!Number.isFinite(number)) return { line, reason: "значение не конечное число" };
  const sensor = sensorAt(index, code, t);
  if (typeof sensor === "string") return { line, reason: sensor };
  const impossible = impossibleValue(sensor, t, number, typeof value === "number" ? String(value) : value);
  if (impossible) return { line, reason: impossible };
  return { line, sensor: sensor.id, t, value: number };
}

/** The lines of a JSON body `{facility?, readings: [{sensor, t, value}]}`, numbered from 1. */
function jsonLines(body: unknown): { code: unknown; time: unknown; value: unknown }[] {
  const readings = (body as { readings?: unknown } | null)?.readings;
  if (!Array.isArray(readings)) throw invalidAt("readings", "ожидается список показаний [{sensor, t, value}]");
  return readings.map((r) => {
    const row = (r ?? {}) as Record<string, unknown>;
    return { code: row.sensor, time: row.t, value: row.value };
  });
}

/** A line of a push as read: its fields, or why it could not be read at all. */
interface Line {
  line: number;
  code: unknown;
  time: unknown;
  value: unknown;
  refused?: string;
}

/** The lines of a CSV with the header `sensor;t;value` (or «,»), numbered as the file's lines. A file the
 *  decoder refuses is decoded line by line: a line whose bytes are neither UTF-8 nor Windows-1251 is
 *  refused by its number (UNDECODABLE_LINE), the others are read; a line whose quote is never closed is
 *  refused by its number too (csvLineRecords); an unreadable header refuses the file. */
function csvLines(bytes: Uint8Array): Line[] {
  if (bytes.byteLength === 0) throw new Invalid(EMPTY_FILE_MESSAGE);
  let text: string;
  const refused: { line: number; reason: string }[] = [];
  try {
    text = decodeCsvBytes(bytes);
  } catch (error) {
    if (!(error instanceof CsvEncodingError)) throw error;
    const lines: string[] = [];
    let start = 0;
    for (let line = 1; start <= bytes.length; line++) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      try {
        lines.push(decodeCsvBytes(bytes.subarray(start, end)));
      } catch (lineError) {
        if (!(lineError instanceof CsvEncodingError)) throw lineError;
        if (line === 1) throw new Invalid(encodingMessage(1));
        refused.push({ line, reason: UNDECODABLE_LINE });
        lines.push("");
      }
      start = end + 1;
    }
    text = lines.join("\n");
  }
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = firstLine.includes(";") ? ";" : ",";
  const records = [...csvLineRecords(text, delimiter, 1, (line, reason) => refused.push({ line, reason }))];
  const header = records.shift();
  if (header?.fields.map((f) => f.trim().toLowerCase()).join(";") !== "sensor;t;value") throw new Invalid(CSV_HEADER_MESSAGE);
  return [
    ...records.map((r) => ({ line: r.line, code: r.fields[0], time: r.fields[1], value: r.fields[2] })),
    ...refused.map(({ line, reason }) => ({ line, code: undefined, time: undefined, value: undefined, refused: reason })),
  ].sort((x, y) => x.line - y.line);
}

export interface ReadBody {
  json?: unknown;
  csv?: Uint8Array;
}

/** The body's lines as sent, numbered: a CSV's or a JSON's. */
const bodyLines = (body: ReadBody): Line[] => (body.csv ? csvLines(body.csv) : jsonLines(body.json).map((l, i) => ({ line: i + 1, ...l })));

/** Every line of the body read against the facility's register. */
export function readReadings(
  body: ReadBody,
  sensors: readonly Sensor[],
  now: number,
  zone = "UTC",
): { readings: ParsedReading[]; refused: Refusal[]; lines: number } {
  const index = sensorIndex(sensors, zone);
  const lines = bodyLines(body);
  if (lines.length === 0) throw new Invalid(EMPTY_MESSAGE);
  if (lines.length > LIMITS.monitoring.readingsPerRequest) {
    throw new Invalid(`Слишком много показаний: не более ${LIMITS.monitoring.readingsPerRequest.toLocaleString("ru-RU")} за запрос`);
  }
  const readings: ParsedReading[] = [];
  const refused: Refusal[] = [];
  const oldest = oldestReading(now);
  for (const l of lines) {
    const read: ParsedReading | Refusal =
      l.refused !== undefined ? { line: l.line, reason: l.refused } : readLine(l.line, l.code, l.time, l.value, index, now, oldest);
    if ("reason" in read) refused.push(read);
    else readings.push(read);
  }
  return { readings, refused, lines: lines.length };
}

/** The push stored: its readings (in the table where they fit in a few write units, else a blob), then
 *  its item and queue mark (no mark where the host announces it on a durable queue of its own, SQS:
 *  kickReadings). Answered 202 only after all of them. `readings_sha256` is of the readings' JSON
 *  (`[[sensor id, ms, value], …]`, the blob's bytes) wherever they are kept.
 *  `kept.id`: the batch's name, which its days keep (the demo's feed names its batches as the demo's,
 *  stored-readings.ts DEMO_BATCH); a new id unless given. `kept.bodySha256`: the body's fingerprint its
 *  Idempotency-Key is held to; `kept.sentBy`: who sent it (D89). */
export async function storeBatch(
  deps: Pick<Deps, "repos" | "blobs" | "clock" | "runtime"> & Partial<Pick<Deps, "readingsQueue">>,
  company: string,
  facility: string,
  body: ReadBody,
  restrictTo?: { facility: string },
  kept: { id?: string; bodySha256?: string; sentBy?: string } = {},
): Promise<ReadingsBatch> {
  const { id = newId(), bodySha256, sentBy } = kept;
  if (restrictTo && restrictTo.facility !== facility) throw new Forbidden("Ключ шлюза выдан для другой площадки");
  const [sensors, owner] = await Promise.all([facilityRegister(deps, company, facility), deps.repos.companies.get(company)]);
  const now = deps.clock.now();
  // The register's dates in service are days on the company's clock.
  const { readings, refused, lines } = readReadings(body, sensors, now.getTime(), zoneOf(owner));
  const rows = readings.map((r): BatchReading => [r.sensor, r.t, r.value]);
  const bytes = new TextEncoder().encode(JSON.stringify(rows));
  const inTable = await deps.repos.monitoring.putBatchReadings(company, id, rows);
  if (!inTable) await deps.blobs.put(batchBlobKey(company, id), bytes, "application/json");
  const batch = queuedBatch(
    { batch: id, company, facility, received_at: now.toISOString() },
    {
      lines,
      refused: refused.slice(0, LIMITS.monitoring.refusedListed),
      refused_count: refused.length,
      readings_sha256: createHash("sha256").update(bytes).digest("hex"),
      ...(deps.readingsQueue ? { queue_mark: false as const } : {}),
      ...(inTable ? { readings_in: "table" as const } : {}),
      ...(bodySha256 === undefined ? {} : { body_sha256: bodySha256 }),
      ...(sentBy ? { sent_by: sentBy } : {}),
    },
  );
  await deps.repos.monitoring.createBatch(batch);
  return batch;
}

/** How long a gateway's Idempotency-Key names its batch. */
const KEY_DAY_MS = 24 * 60 * 60 * 1000;
/** An Idempotency-Key: the gateway's batch id, printable ASCII. */
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${LIMITS.monitoring.idempotencyKey}}$`);

/** A body's fingerprint, what an Idempotency-Key is sent again with: the SHA-256 of
 *  its lines as read — each line's sensor, time and value as sent (a JSON reading's fields, a CSV line's
 *  cells), or why the line could not be read — so the same readings sent again match however the JSON
 *  was spaced or its keys ordered, and any other reading, instant or value does not. */
export function bodyFingerprint(body: ReadBody): string {
  const lines = bodyLines(body);
  const hash = createHash("sha256");
  for (const { code, time, value, refused } of lines)
    hash.update(`${JSON.stringify([code ?? null, time ?? null, value ?? null, refused ?? null])}\n`);
  return hash.digest("hex");
}

/** The refusal of a key sent again with another body: the key and the batch it first made, when. */
function keyReused(key: string, first: ReadingsBatch): Unprocessable {
  const when = `${ruDate(first.received_at.slice(0, 10))} ${first.received_at.slice(11, 16)} UTC`;
  return new Unprocessable(
    `Ключ Idempotency-Key «${key}» уже использован для пакета ${first.batch} (принят ${when}) с другими показаниями: ` +
      "повторная отправка должна быть той же, для новых показаний нужен новый ключ",
  );
}

/** A push with the gateway's Idempotency-Key (its batch id): the same key for the facility within a day
 *  with the same body (bodyFingerprint) answers the batch it first made, storing nothing (a gateway
 *  re-sending a batch whose 202 it lost, after a later correction, undid the correction: an earlier round,
 *  item 9); with another body it is refused, naming the key and the first batch (as
 *  the IETF's Idempotency-Key draft and Stripe do — readings silently dropped under an answer of 202 are
 *  lost), a gateway's push and a user's alike. A batch stored before its fingerprint was kept is
 *  answered as before. `again` says it was answered again. The batch's id is made from the key and the
 *  day it came (idOf), so two pushes of one key at once make one batch. */
export async function storeKeyedBatch(
  deps: Parameters<typeof storeBatch>[0],
  company: string,
  facility: string,
  body: ReadBody,
  restrictTo: { facility: string } | undefined,
  key: string | undefined,
  sentBy?: string,
): Promise<{ batch: ReadingsBatch; again: boolean }> {
  if (key === undefined) return { batch: await storeBatch(deps, company, facility, body, restrictTo, { sentBy }), again: false };
  if (!IDEMPOTENCY_KEY.test(key)) throw invalidAt("Idempotency-Key", "от 1 до 200 печатных символов ASCII без пробелов");
  if (restrictTo && restrictTo.facility !== facility) throw new Forbidden("Ключ шлюза выдан для другой площадки");
  const fingerprint = bodyFingerprint(body);
  const now = deps.clock.now().getTime();
  const day = Math.floor(now / KEY_DAY_MS);
  // The ids are stored: their seed keeps the wing's old word, so a retried push still finds its batch.
  const [today, yesterday] = [day, day - 1].map((d) => idOf("telemetry-push", company, facility, key, String(d)));
  const first = async (): Promise<ReadingsBatch | undefined> => {
    for (const id of [today, yesterday]) {
      const batch = await deps.repos.monitoring.getBatch(company, id);
      if (batch && now - Date.parse(batch.received_at) < KEY_DAY_MS) return batch;
    }
    return undefined;
  };
  const answered = (batch: ReadingsBatch) => {
    if (batch.body_sha256 !== undefined && batch.body_sha256 !== fingerprint) throw keyReused(key, batch);
    return { batch, again: true };
  };
  const kept = await first();
  if (kept) return answered(kept);
  try {
    return {
      batch: await storeBatch(deps, company, facility, body, restrictTo, { id: today, bodySha256: fingerprint, sentBy }),
      again: false,
    };
  } catch (error) {
    // The same key at once: the other push made the batch.
    const made = error instanceof Conflict ? await first() : undefined;
    if (made) return answered(made);
    throw error;
  }
}

/** A batch as stored when it is received, queued for the consumer with nothing yet accepted: the one
 *  shape of a pushed batch (above) and of a file's (files.ts), `read` saying what is known of it now. */
export function queuedBatch(
  at: Pick<ReadingsBatch, "batch" | "company" | "facility" | "received_at">,
  read: Partial<
    Pick<
      ReadingsBatch,
      | "lines"
      | "refused"
      | "refused_count"
      | "readings_sha256"
      | "file"
      | "file_name"
      | "queue_mark"
      | "readings_in"
      | "body_sha256"
      | "sent_by"
    >
  > = {},
): ReadingsBatch {
  const base = { lines: 0, accepted: 0, duplicate: 0, corrected: 0, refused: [], refused_count: 0, readings_sha256: "" };
  return { ...at, state: "queued", ...base, ...read };
}

/** D89: who sends a batch, as the batch keeps it — a user by surname and initials (never the
 *  e-mail), a gateway by its key's label («ключ шлюза «Шлюз диспетчерской»»). */
export async function batchSender(
  deps: Pick<Deps, "repos">,
  from: { user: Pick<Actor, "company" | "id"> } | { gateway: { company: string; facility: string; id: string } },
): Promise<string> {
  if ("user" in from) {
    const user = await deps.repos.users.get(from.user.company, from.user.id);
    return (user && surnameInitials(user)) || UNNAMED_PERSON;
  }
  const { company, facility, id } = from.gateway;
  const key = (await deps.repos.gatewayKeys.listOfFacility(company, facility)).find((k) => k.id === id);
  return `ключ шлюза «${key?.label ?? "без названия"}»`;
}

/** The facility's list of loads («Загрузки АГК»): its latest batches, pushed or
 *  uploaded, newest first, each with its state and counts, a batch set aside with its reason. The
 *  facility is the actor's company's (NotFound otherwise). */
export async function listBatches(deps: Pick<Deps, "repos">, actor: Actor, facilityId: string): Promise<ListedBatch[]> {
  const facility = await getFacility(deps, actor, facilityId);
  return deps.repos.monitoring.batchesOfFacility(actor.company, facility.id, LIMITS.monitoring.batchesListed);
}
