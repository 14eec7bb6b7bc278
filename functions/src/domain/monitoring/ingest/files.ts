// A dispatch system's export as a source (methodology D57): a year of one sensor set in one file, sent
// straight to storage as the forecast histories are (domain/files/direct-uploads.ts), and fed to the same
// consumer as a push:
//
//   1. POST v1/telemetry/upload-url/ {facility, content_type, size, name} answers where to PUT the file
//      (S3 presigned in AWS, PUT /api/v1/uploads/ locally) and `file_upload`, its key
//      `telemetry-uploads/{company}/{facility}/{id}.csv`;
//   2. the browser (or a script) PUTs the file there;
//   3. POST v1/telemetry/files/ {facility, file_upload} checks what arrived — a 0-byte file and a header
//      the decoder cannot read are refused at once, naming the line — and stores one batch (its id the
//      key's: the same upload named twice is one batch) with its queue mark, answered 202 like a push.
//
// The consumer reads the stored file in ranged pieces (dispatch-file.ts: never held whole), each line
// against the facility's register as it was at the reading's time, and applies the readings in parts
// cut at UTC-day boundaries (about PART_READINGS each; a time-ordered file writes each sensor-day once),
// each part under its own name in the days (`{batch}#{n}`), so a consumer stopped half-way and run again
// counts nothing twice and the batch is done only when every part is in. The file is kept: it is the
// batch's readings, as a push's blob is.
import { lineOf } from "../../../contract/field-errors";
import { createHash } from "node:crypto";
import { zoneOf } from "@core/company-clock";
import type { Actor, Deps } from "../../context";
import { Conflict, Invalid, invalidAt, NotFound, TooManyRequests } from "../../errors";
import { newId } from "../../ids";
import { getFacility } from "../../company/facilities";
import { ABANDONED_UPLOAD_MS, checkDeclared, grantUpload, type UploadGrant, type UploadRequest } from "../../files/direct-uploads";
import { fileSize } from "../../../contract/schemas/uploads";
import type { Facility, Sensor, ReadingsBatch } from "../../../ports";
import { LIMITS, STORED_ID } from "../../../contract/schemas/limits";
import { refuseUnchangedTemplate } from "./dispatch-template";
import { BLOCK_BYTES, DispatchReader, EMPTY_FILE_MESSAGE, LineInvalid, type RefusalKind } from "./dispatch-file";
import { batchSender, impossibleValue, oldestReading, queuedBatch, sensorIndex, sensorAt } from "./readings";
import { ReadingColumns, type SensorReadings } from "./reading-columns";

/** The area of these uploads (adapters/blob/areas.ts): the S3 prefix keeps the wing's old name, as the
 *  uploads already stored are under it. */
export const READINGS_UPLOAD_AREA = "telemetry-uploads";
export const READINGS_FILE_TYPES = ["text/csv", "text/plain"] as const;
const KEY_RE = new RegExp(`^telemetry-uploads/(${STORED_ID})/(${STORED_ID})/([0-9a-f-]{36})\\.csv$`);
/** A part is cut at the first change of UTC day once it holds this many readings (or at 4× regardless). */
export const PART_READINGS = LIMITS.monitoring.readingsPerRequest;
/** How much of the stored file one ranged read takes. */
const RANGE_BYTES = 4 * 1024 * 1024;

export const readingsFileKey = (company: string, facility: string, id: string) =>
  `${READINGS_UPLOAD_AREA}/${company}/${facility}/${id}.csv`;

/** POST v1/telemetry/upload-url/: a user of the facility's company. */
export async function readingsUploadUrl(
  deps: Deps,
  actor: Actor,
  request: UploadRequest & { facility: string },
): Promise<UploadGrant & { file_upload: string }> {
  const facility = await getFacility(deps, actor, request.facility);
  if (request.size === 0) throw new Invalid(EMPTY_FILE_MESSAGE);
  const contentType = checkDeclared(
    request,
    READINGS_FILE_TYPES,
    LIMITS.monitoring.fileBytes,
    lineOf({ field: "content_type", message: "ожидается выгрузка АГК в CSV (text/csv)" }),
  );
  const id = newId();
  const key = readingsFileKey(actor.company, facility.id, id);
  await takeUploadBudget(deps, actor.company, id, request.size);
  const grant = await grantUpload(
    deps,
    actor,
    { purpose: "readings" },
    { key, contentType, max: request.size, size: request.size, name: request.name },
  );
  return { ...grant, file_upload: key };
}

/** The company's dispatch exports granted and not yet applied: a counter of amounts (ports/counters.ts),
 *  an upload's id to its declared bytes. Its stored name keeps the wing's old word. */
export const UPLOAD_BUDGET_CAP = "TELEMETRY_UPLOADS";

/** When a grant's id (UUID v7) was made, ms since the epoch. */
const madeAt = (id: string) => Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);

/** an upload grant counts `size` bytes against the company's budget (LIMITS.monitoring.
 *  uploadBudgetBytes) while the file is uploading or stored and not yet applied: until its batch is
 *  done (or set aside), or, never named as a batch, until the sweep of abandoned uploads takes it (a day,
 *  sweepAbandonedUploads; the bucket's lifecycle rule in AWS). Past the budget, or past
 *  LIMITS.monitoring.uploadsInFlight grants, the grant is refused (429), writing nothing, until the
 *  consumer has read what came before. The grants done with are dropped and this one added in one write
 *  conditional on the counter's revision, so grants racing never pass the budget together. */
async function takeUploadBudget(deps: Deps, company: string, id: string, size: number): Promise<void> {
  const { caps } = deps.repos;
  const { uploadBudgetBytes: budget, uploadsInFlight } = LIMITS.monitoring;
  const held = async () => (await caps.listAmounts(company, UPLOAD_BUDGET_CAP)).find((c) => c.name === UPLOAD_BUDGET_CAP);
  const refuse = (grants: number[]) => {
    const total = grants.reduce((sum, bytes) => sum + bytes, 0);
    return new TooManyRequests(
      grants.length >= uploadsInFlight
        ? `Уже загружаются или ждут обработки ${uploadsInFlight} выгрузок АГК компании: дождитесь, пока они будут применены, и повторите`
        : `Выгрузки АГК компании, которые загружаются или ждут обработки, уже занимают ${fileSize(total)} из ${fileSize(budget)}: ` +
            `файл в ${fileSize(size)} не помещается — дождитесь, пока они будут применены, и повторите`,
      UPLOAD_BUDGET_RETRY_SECONDS,
    );
  };
  const fits = (grants: number[]) => grants.length < uploadsInFlight && grants.reduce((sum, bytes) => sum + bytes, 0) + size <= budget;
  const abandoned = deps.clock.now().getTime() - Math.max(ABANDONED_UPLOAD_MS, 2 * deps.config.uploadUrlTtlSeconds * 1000);
  // Each turn lost is another grant's write in between (a first grant's making of the counter, or an
  // answered grant); a grant that loses ten is refused as busy, never let through unchecked.
  for (let attempt = 0; attempt < 10; attempt++) {
    const before = await held();
    if (!before) {
      // The company's first grant makes its counter, empty (an amount of 0 is dropped below), then reads it.
      await caps.takeAmounts(company, UPLOAD_BUDGET_CAP, { [id]: 0 }, budget, async () => ({}));
      continue;
    }
    const live: Record<string, number> = {};
    for (const [grant, bytes] of Object.entries(before.amounts)) {
      if (bytes <= 0) continue;
      const batch = await deps.repos.monitoring.getBatch(company, grant);
      if (batch ? batch.state === "queued" : madeAt(grant) > abandoned) live[grant] = bytes;
    }
    if (!fits(Object.values(live))) throw refuse(Object.values(live));
    if (await caps.setAmounts(company, UPLOAD_BUDGET_CAP, { ...live, [id]: size }, before.rev)) return;
    // Another grant (or a settling) changed the counter since it was read: read it again.
  }
  throw new TooManyRequests("Выгрузки АГК компании запрашиваются слишком часто: повторите через минуту", UPLOAD_BUDGET_RETRY_SECONDS);
}

/** An upload read and never to be applied (a reconciliation's export, reconciliation.ts): its bytes no
 *  longer counted against the company's budget. */
export async function releaseUploadBudget(deps: Pick<Deps, "repos">, company: string, fileUpload: string): Promise<void> {
  const id = KEY_RE.exec(fileUpload)?.[3];
  if (!id) return;
  const { caps } = deps.repos;
  for (let attempt = 0; attempt < 10; attempt++) {
    const held = (await caps.listAmounts(company, UPLOAD_BUDGET_CAP)).find((c) => c.name === UPLOAD_BUDGET_CAP);
    if (!held || !(id in held.amounts)) return;
    const { [id]: _released, ...rest } = held.amounts;
    if (await caps.setAmounts(company, UPLOAD_BUDGET_CAP, rest, held.rev)) return;
  }
}

/** The Retry-After of a grant refused for the budget: about what the consumer takes for a month's file. */
const UPLOAD_BUDGET_RETRY_SECONDS = 60;

/** The first 64 KiB of the stored file (the header is in them). */
async function head(deps: Pick<Deps, "blobs">, key: string): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  for await (const piece of fileBytes(deps, key, HEAD_BYTES)) pieces.push(piece);
  return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
}
const HEAD_BYTES = 64 * 1024;

/** An uploaded export the request names (POST v1/telemetry/files/, POST v1/telemetry/reconciliations/): the
 *  facility (the actor's company's, NotFound otherwise) and the upload's id, once its key is checked to be
 *  an upload of that facility and the file found stored. With `check`, the file is also refused at once
 *  when it is empty or its header cannot be read (naming the line). */
export async function uploadedExport(
  deps: Deps,
  actor: Actor,
  request: { facility: string; file_upload: string },
  check: (id: string) => Promise<boolean> = async () => true,
): Promise<{ facility: Facility; id: string; whole?: Uint8Array }> {
  const facility = await getFacility(deps, actor, request.facility);
  const match = KEY_RE.exec(request.file_upload);
  if (!match) throw invalidAt("file_upload", "ожидается ключ файла из ответа upload-url");
  const missing = new NotFound("Загруженный файл не найден: загрузите его заново");
  if (match[1] !== actor.company || match[2] !== facility.id) throw missing;
  const id = match[3];
  if (!(await check(id))) return { facility, id };
  const info = deps.blobs.stat ? await deps.blobs.stat(request.file_upload) : undefined;
  const size = info?.size ?? (await deps.blobs.get(request.file_upload))?.body.byteLength;
  if (size === undefined) throw missing;
  if (size === 0) throw new Invalid(EMPTY_FILE_MESSAGE);
  // The header read now, so a file the consumer could not read at all is refused in the answer.
  const first = await head(deps, request.file_upload);
  const cut = first.indexOf(0x0a);
  const reader = new DispatchReader({ zone: "UTC" }, { reading: () => undefined, refuse: () => {} });
  reader.push(cut >= 0 ? first.subarray(0, cut + 1) : first);
  reader.end();
  await deps.blobs.confirmUpload?.(request.file_upload);
  return { facility, id, whole: size <= HEAD_BYTES ? first : undefined };
}

/** POST v1/telemetry/files/: the uploaded export stored as a batch of the facility, queued for the
 *  consumer. Refused whole, with the line named, when it is empty or its header cannot be read. */
export async function importReadingsFile(
  deps: Deps,
  actor: Actor,
  request: { facility: string; file_upload: string; name?: string },
): Promise<ReadingsBatch> {
  let existing: ReadingsBatch | undefined;
  const { facility, id, whole } = await uploadedExport(deps, actor, request, async (upload) => {
    existing = await deps.repos.monitoring.getBatch(actor.company, upload);
    return !existing;
  });
  if (existing) return existing;
  // «Скачать шаблон»'s example lines sent back unchanged would be stored as readings.
  // Refused, it is never applied: its bytes leave the company's budget at once.
  if (whole)
    await refuseUnchangedTemplate(deps, actor, facility.id, whole).catch(async (error: unknown) => {
      await releaseUploadBudget(deps, actor.company, request.file_upload);
      throw error;
    });
  const received = { batch: id, company: actor.company, facility: facility.id, received_at: deps.clock.now().toISOString() };
  // The same upload named twice at once: one batch.
  return createOnce(
    deps,
    queuedBatch(received, {
      file: request.file_upload,
      file_name: (request.name ?? "").trim().slice(0, LIMITS.name.file),
      sent_by: await batchSender(deps, { user: actor }),
    }),
  );
}

/** The queued batch stored, or the one stored under its id before it (a file named twice at once, a
 *  notification delivered twice). */
async function createOnce(deps: Pick<Deps, "repos">, batch: ReadingsBatch): Promise<ReadingsBatch> {
  try {
    await deps.repos.monitoring.createBatch(batch);
  } catch (error) {
    if (error instanceof Conflict) return (await deps.repos.monitoring.getBatch(batch.company, batch.batch)) ?? batch;
    throw error;
  }
  return batch;
}

/** Where a mine's system drops its dispatch exports in AWS (the uploads bucket, whose "object created"
 *  notifications under it go to the readings' queue): `telemetry/files/{company}/{facility}/{name}`. */
export const READINGS_DROP_PREFIX = "telemetry/files/";
// The file's name as storage keys are (adapters/blob/s3-blob-store.ts): Latin letters, digits, «.», «_», «-».
const DROP_RE = new RegExp(`^telemetry/files/(${STORED_ID})/(${STORED_ID})/([A-Za-z0-9][A-Za-z0-9._-]{0,${LIMITS.name.droppedFile - 1}})$`);

/** A file dropped under a facility's prefix as a batch of that facility, queued for the consumer and
 *  listed in the facility's list of loads (its notification is its announcement: a climate period of
 *  its hours waits for it while it is applied): its id made of the key and the object's version tag
 *  (ETag), so a notification delivered twice is one batch and the same name written anew another.
 *  Undefined for a key of no known company's facility (or a name of other characters than storage keys
 *  take). */
export async function droppedFileBatch(deps: Pick<Deps, "repos" | "clock">, key: string, tag: string): Promise<ReadingsBatch | undefined> {
  const match = DROP_RE.exec(key);
  if (!match) return undefined;
  const [, company, facilityId, name] = match;
  const facility = await deps.repos.facilities.get(company, facilityId);
  if (!facility) return undefined;
  const hex = createHash("sha256").update(`${key}\n${tag}`).digest("hex");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  const received = { batch: id, company, facility: facility.id, received_at: deps.clock.now().toISOString() };
  const batch =
    (await deps.repos.monitoring.getBatch(company, id)) ??
    (await createOnce(deps, queuedBatch(received, { file: key, file_name: name.slice(0, LIMITS.name.file) })));
  // Listed again where a crash before its line left it unlisted (the notification comes again).
  await deps.repos.monitoring.listBatch(batch);
  return batch;
}

/** The stored file's bytes, piece by piece, read by ranges where the store reads them: all of them, or
 *  the first `limit`. */
async function* fileBytes(deps: Pick<Deps, "blobs">, key: string, limit = Number.POSITIVE_INFINITY): AsyncGenerator<Uint8Array> {
  const { stat, getRange } = deps.blobs;
  if (!stat || !getRange) {
    const blob = await deps.blobs.get(key);
    if (blob) yield blob.body.subarray(0, Math.min(blob.body.byteLength, limit));
    return;
  }
  const info = await stat.call(deps.blobs, key);
  if (!info) return;
  const size = Math.min(info.size, limit);
  for (let start = 0; start < size; start += RANGE_BYTES) {
    const stream = await getRange.call(deps.blobs, key, start, Math.min(size, start + RANGE_BYTES) - 1);
    if (!stream) return;
    for await (const piece of stream) yield piece;
  }
}

/** instants (UTC ms, both included) a file has lines or values for that were not read,
 *  of the sensors named (all where none are). */
export interface UnreadSpan {
  from: number;
  to: number;
  sensors?: readonly string[];
}

/** A file batch read from its file: each part of its accepted readings handed to `apply` (in file
 *  order), and what the batch's status says of the file. */
export async function readFileBatch(
  deps: Pick<Deps, "repos" | "blobs">,
  batch: Pick<ReadingsBatch, "company" | "facility" | "received_at" | "file">,
  apply: (part: number, readings: SensorReadings[]) => Promise<void>,
  /** Told each code the file names that the facility's register has not (a reconciliation names them). */
  unknown?: (code: string) => void,
  /** told the instants the file has lines or values for that were not read — a value
   *  refused (its sensor at its instant), a line cut short (its lacking sensors), a line whose time was not
   *  read (every sensor, between the instants of the lines read before and after it): a reconciliation
   *  does not count the stored readings there as absent from the file. */
  unread?: (span: UnreadSpan) => void,
): Promise<
  Pick<ReadingsBatch, "lines" | "refused" | "refused_count" | "refused_values" | "refused_lines" | "incomplete_lines" | "readings_sha256">
> {
  const [sensors, company] = await Promise.all([
    deps.repos.sensors.listOfFacility(batch.company, batch.facility),
    deps.repos.companies.get(batch.company),
  ]);
  const index = sensorIndex(sensors, zoneOf(company));
  const refused: ReadingsBatch["refused"] = [];
  let refusedCount = 0;
  // values refused (their lines' other values read), lines refused whole, lines cut short.
  const kinds: Record<RefusalKind, number> = { value: 0, line: 0, incomplete: 0 };
  const hash = createHash("sha256").update("[");
  let hashed = 0;
  // The part being read, per sensor in typed arrays; the parts read and not yet applied (a block's).
  const part = new ReadingColumns();
  let partDay = -1;
  let parts = 0;
  const ready: SensorReadings[][] = [];
  // The instant of the latest line read, in file order, and whether a line whose time was not read came since.
  let lastRead = Number.NEGATIVE_INFINITY;
  let gap = false;
  const reader = new DispatchReader(
    {
      zone: zoneOf(company),
      // The batch's own time, not the consumer's: a file read again after a stop refuses the same lines.
      now: Date.parse(batch.received_at),
      futureMinutes: LIMITS.monitoring.futureMinutes,
      oldest: oldestReading(Date.parse(batch.received_at)),
      known: (code) => {
        const known = index.byCode.has(code.trim().toLocaleLowerCase("ru"));
        if (!known) unknown?.(code.trim());
        return known;
      },
    },
    {
      reading(_line, code, t, value) {
        if (gap && t > lastRead + 1) unread?.({ from: lastRead + 1, to: t - 1 });
        gap = false;
        lastRead = t;
        const sensor: Sensor | string = sensorAt(index, code, t);
        if (typeof sensor === "string") {
          if (unknown && !index.byCode.has(code.trim().toLocaleLowerCase("ru"))) unknown(code.trim());
          return sensor;
        }
        const impossible = impossibleValue(sensor, t, value, String(value));
        if (impossible) return impossible;
        const day = Math.floor(t / 86_400_000);
        if ((part.length >= PART_READINGS && day !== partDay) || part.length >= 4 * PART_READINGS) ready.push(part.take());
        partDay = day;
        part.add(sensor.id, t, value);
        hash.update(`${hashed++ ? "," : ""}${JSON.stringify([sensor.id, t, value])}`);
        return undefined;
      },
      refuse(line, reason, kind = "line", at) {
        refusedCount++;
        kinds[kind]++;
        if (refused.length < LIMITS.monitoring.refusedListed) refused.push({ line, reason });
        if (!unread) return;
        if (!at) {
          // The header's refusals (a column of an unknown sensor) leave no instant unread.
          if (line > 1) gap = true;
          return;
        }
        const sensors = at.codes?.flatMap((code) => {
          const sensor = sensorAt(index, code, at.t);
          return typeof sensor === "string" ? [] : [sensor.id];
        });
        unread({ from: at.t, to: at.t, ...(sensors ? { sensors } : {}) });
      },
    },
  );
  const flush = async () => {
    // Each part let go once applied.
    while (ready.length > 0) await apply(parts++, ready.shift()!);
  };
  try {
    for await (const piece of fileBytes(deps, batch.file!)) {
      // A block at a time, the event loop let go between them: the requests of others are answered
      // while a year's file is read.
      for (let at = 0; at < piece.byteLength; at += BLOCK_BYTES) {
        reader.push(piece.subarray(at, at + BLOCK_BYTES));
        await flush();
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    reader.end();
  } catch (error) {
    // Refused whole (empty, or a header that cannot be read: the answer checked these for an upload,
    // not for a file dropped into the bucket): its line and reason, nothing of it applied.
    if (!(error instanceof Invalid)) throw error;
    ready.length = 0;
    part.take();
    refusedCount++;
    kinds.line++;
    refused.push({ line: error instanceof LineInvalid ? error.line : 1, reason: error.detail });
  }
  if (part.length > 0) ready.push(part.take());
  await flush();
  refused.sort((a, b) => a.line - b.line);
  return {
    lines: Math.max(0, reader.lines - 1),
    refused,
    refused_count: refusedCount,
    refused_values: kinds.value,
    refused_lines: kinds.line,
    incomplete_lines: kinds.incomplete,
    readings_sha256: hash.update("]").digest("hex"),
  };
}
