// D94: a sensor's state verification (поверка) as a measuring instrument — its type,
// the type's number in the state register of measuring instruments, the serial, the day verified, valid to
// and the certificate's (record's) number. Written once by the facility's staff (a reviewer writes none);
// a correction is a newer record. A sensor is out of verification from the day after its latest
// verification's `valid_to` until a next one; its minutes then are «показания под сомнением» (D94), and
// every screen and document that names the sensor's state says «вне поверки с ДД.ММ.ГГГГ». The law that
// requires verification (102-ФЗ «Об обеспечении единства измерений») is cited, its text not read here.
// The certificate's scan (PDF, PNG or JPEG) is added to a verification once, after it is recorded, marked
// with who attached it and when; it never changes the verification's fields. It is kept as a coefficient's
// evidence file is (calculations/evidence.ts, putEvidenceFile: uploads/{company}/{verification}/…), so the
// orphan sweep keeps it while the verification names it, and only the company's users download it.
import { isoDateIn, zoneOf } from "@core/company-clock";
import { verificationsInForce } from "@core/sensor-checks";
import type * as z from "zod";
import type { Actor, Deps } from "../../context";
import { Conflict, Forbidden, invalidAt, NotFound } from "../../errors";
import { CERTIFICATE_ATTACHED } from "../../../ports/instruments";
import { putEvidenceFile, type EvidenceRule } from "../../calculations/evidence";
import type { UploadedFile } from "../../../files/tabular";
import { LIMITS } from "../../../contract/schemas/limits";
import { fileSize } from "../../../contract/schemas/uploads";
import { newId } from "../../ids";
import { initialsByEmail } from "../../person-name";
import { getOfFacility } from "../../company/facilities";
import { storedFile, type StoredFile } from "../../files/stored-file";
import type { SensorVerification } from "../../../ports";
import { sameVerification } from "../../../ports/instruments";
import type { verificationCreateSchema, VerificationList, VerificationView } from "../../../contract/schemas/sensor-checks";
import { REVIEWER_SIGNS_NOTHING, SENSOR_MISSING } from "./sensor-checks";
import { ruDate } from "@core/dates";

export const VERIFICATION_CORRECTED = "Эту поверку уже исправили: исправление следует за последней записью";
const dayAfter = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export interface VerificationState {
  state: "valid" | "expired" | "none";
  /** «поверен до 31.12.2026», «вне поверки с 10.03.2026», «поверка не записана». */
  text: string;
  /** The first day out of verification (expired), else null. */
  out_from: string | null;
}

type Counted = Pick<SensorVerification, "verified_on" | "valid_to"> & { id?: string; corrects?: string | null };

/** The state of a sensor's verification on a company day, from its records (any order). */
export function verificationOn(records: readonly Counted[], day: string): VerificationState {
  const held = verificationsInForce(records)
    .filter((r) => r.verified_on <= day)
    .sort((a, b) => b.verified_on.localeCompare(a.verified_on))[0];
  if (!held) return { state: "none", text: "поверка не записана", out_from: null };
  if (day > held.valid_to)
    return { state: "expired", text: `вне поверки с ${ruDate(dayAfter(held.valid_to))}`, out_from: dayAfter(held.valid_to) };
  return { state: "valid", text: `поверен до ${ruDate(held.valid_to)}`, out_from: null };
}

const view = (r: SensorVerification, nameOf: (email: string) => string, correctedBy: string | null): VerificationView => ({
  id: r.id,
  corrects: r.corrects ?? null,
  corrected_by: correctedBy,
  sensor: r.sensor,
  instrument_type: r.instrument_type,
  register_number: r.register_number,
  serial: r.serial,
  verified_on: r.verified_on,
  valid_to: r.valid_to,
  certificate: r.certificate,
  recorded_by: nameOf(r.recorded_by),
  recorded_at: r.recorded_at,
  ...(r.certificate_file ? { certificate_file: certificateFileView(r.certificate_file, nameOf) } : {}),
});

const certificateFileView = (
  { key: _key, uploaded_by, ...visible }: NonNullable<SensorVerification["certificate_file"]>,
  nameOf: (email: string) => string,
) => ({ ...visible, uploaded_by: nameOf(uploaded_by) });

/** A certificate's scan: a PDF or a picture (no workbook), at most LIMITS.sensorChecks.certificateFileBytes. */
export const CERTIFICATE_FILE: EvidenceRule = {
  formats: ["pdf", "png", "jpg"],
  maxBytes: LIMITS.sensorChecks.certificateFileBytes,
  wrongType: "Неподдерживаемый тип файла: приложите скан свидетельства о поверке в PDF или изображение PNG или JPEG",
};
export const VERIFICATION_MISSING = "Поверка не найдена";

/** The record correcting `id` among `records`, if any. */
const correctorOf = (records: readonly SensorVerification[], id: string) => records.find((r) => r.corrects === id)?.id ?? null;

/** The sensor's verifications, newest first, with its state today. */
export async function listVerifications(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
): Promise<VerificationList> {
  const sensor = await getOfFacility(deps, actor, facilityId, deps.repos.sensors, sensorId, SENSOR_MISSING);
  const records = (await deps.repos.sensorChecks.verificationsOfFacility(actor.company, facilityId)).filter((r) => r.sensor === sensor.id);
  const today = isoDateIn(deps.clock.now(), zoneOf(await deps.repos.companies.get(actor.company)));
  const state = verificationOn(records, today);
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  return {
    sensor: sensor.id,
    code: sensor.code,
    state: state.state,
    state_text: state.text,
    results: records.map((r) => view(r, nameOf, correctorOf(records, r.id))),
  };
}

/** The facility's staff record a verification of `sensor`; never edited after. */
export async function recordVerification(
  deps: Pick<Deps, "repos" | "clock">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  input: z.output<typeof verificationCreateSchema>,
): Promise<VerificationView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER_SIGNS_NOTHING);
  const sensor = await getOfFacility(deps, actor, facilityId, deps.repos.sensors, sensorId, SENSOR_MISSING);
  // A record of a verification that took place: one dated after today would cover minutes nobody verified.
  const today = isoDateIn(deps.clock.now(), zoneOf(await deps.repos.companies.get(actor.company)));
  if (input.verified_on > today)
    throw invalidAt("verified_on", `дата поверки позже сегодняшней (${ruDate(today)}): записывают поверку, которая прошла`);
  const record: SensorVerification = {
    company: actor.company,
    facility: facilityId,
    sensor: sensor.id,
    id: newId(),
    ...input,
    corrects: input.corrects ?? null,
    recorded_by: actor.email,
    recorded_at: deps.clock.now().toISOString(),
  };
  const nameOf = await initialsByEmail(deps.repos, actor.company);
  if (record.corrects) {
    // One correction each, of a record of this sensor: the same correction sent again is the one written
    // (the storage's once item holds this against writes at the same moment).
    const own = (await deps.repos.sensorChecks.verificationsOfFacility(actor.company, facilityId)).filter((r) => r.sensor === sensor.id);
    if (!own.some((r) => r.id === record.corrects)) throw invalidAt("corrects", "исправляемая поверка этого датчика не найдена");
    const corrector = own.find((r) => r.corrects === record.corrects);
    if (corrector && sameVerification(corrector, record)) return view(corrector, nameOf, correctorOf(own, corrector.id));
    if (corrector) throw new Conflict(VERIFICATION_CORRECTED);
  }
  // Written once: the same verification sent again (a double press, a retry) is the one written.
  return view(await deps.repos.sensorChecks.createVerification(record), nameOf, null);
}

/** The verification `id` of the facility's `sensor`, or 404 (another company's, another sensor's, none). */
async function verificationOf(deps: Pick<Deps, "repos">, actor: Actor, facilityId: string, sensorId: string, id: string) {
  const sensor = await getOfFacility(deps, actor, facilityId, deps.repos.sensors, sensorId, SENSOR_MISSING);
  const own = (await deps.repos.sensorChecks.verificationsOfFacility(actor.company, facilityId)).filter((r) => r.sensor === sensor.id);
  const record = own.find((r) => r.id === id);
  if (!record) throw new NotFound(VERIFICATION_MISSING);
  return { record, correctedBy: correctorOf(own, record.id) };
}

/** Adds the certificate's scan to a recorded verification, once (409 when one is attached): an addition
 *  marked with who and when, the verification's fields as they were. */
export async function attachCertificateFile(
  deps: Pick<Deps, "repos" | "clock" | "blobs">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  id: string,
  file: UploadedFile | undefined,
): Promise<VerificationView> {
  if (actor.role === "reviewer") throw new Forbidden(REVIEWER_SIGNS_NOTHING);
  const { record, correctedBy } = await verificationOf(deps, actor, facilityId, sensorId, id);
  if (record.certificate_file) throw new Conflict(CERTIFICATE_ATTACHED);
  // The company's scans in all are held to their quota: the file's bytes taken before it is stored, given
  // back when it is not.
  const size = file?.bytes.byteLength ?? 0;
  const giveBack = await takeScanPlace(deps, actor.company, size);
  let stored: Awaited<ReturnType<typeof putEvidenceFile>> | undefined;
  try {
    stored = await putEvidenceFile(deps, actor.company, record.id, file, CERTIFICATE_FILE);
    await deps.repos.sensorChecks.attachVerificationFile({ ...record, certificate_file: { ...stored, uploaded_by: actor.email } });
  } catch (error) {
    if (stored) await deps.blobs.delete(stored.key);
    await giveBack();
    throw error;
  }
  const next: SensorVerification = { ...record, certificate_file: { ...stored, uploaded_by: actor.email } };
  return view(next, await initialsByEmail(deps.repos, actor.company), correctedBy);
}

/** The counter of the company's certificate scans, in bytes (LIMITS.sensorChecks.certificateScansPerCompanyBytes). */
const SCANS_CAP = "CERTIFICATE_SCANS";
const gigabytes = (bytes: number) => `${(bytes / 1024 ** 3).toLocaleString("ru-RU", { maximumFractionDigits: 2 })} ГБ`;

/** Takes `size` bytes of the company's scan quota, or refuses (409) naming the quota, what is taken and
 *  the file; answers how to give them back. A counter not made yet starts from the scans stored before
 *  it (every facility's verifications). */
async function takeScanPlace(deps: Pick<Deps, "repos">, company: string, size: number): Promise<() => Promise<void>> {
  const limit = LIMITS.sensorChecks.certificateScansPerCompanyBytes;
  const count = async () => {
    let bytes = 0;
    for (const facility of await deps.repos.facilities.list(company))
      for (const record of await deps.repos.sensorChecks.verificationsOfFacility(company, facility.id))
        bytes += record.certificate_file?.size ?? 0;
    return bytes;
  };
  if (!(await deps.repos.caps.take(company, SCANS_CAP, limit, count, size))) {
    const taken = await deps.repos.caps.taken(company, SCANS_CAP);
    throw new Conflict(
      `Место для сканов свидетельств организации исчерпано: занято ${gigabytes(taken)} из ${gigabytes(limit)}, ` +
        `этот файл (${fileSize(size)}) не помещается. Приложенные сканы не удаляются (запись поверки не меняется): ` +
        "уменьшите файл (например, скан в оттенках серого, 150–200 точек на дюйм) или обратитесь к администратору платформы",
    );
  }
  return () => deps.repos.caps.give(company, SCANS_CAP, size);
}

/** How long a certificate's storage address lives (AWS): the page navigates to it at once. */
const CERTIFICATE_URL_SECONDS = 5 * 60;

/** The certificate's scan of a verification of the company's sensor, for download: in AWS its storage
 *  address (a scan of up to 10 MB does not fit a Lambda answer), else streamed from the folder. */
export async function getCertificateFile(
  deps: Pick<Deps, "repos" | "blobs">,
  actor: Actor,
  facilityId: string,
  sensorId: string,
  id: string,
): Promise<StoredFile> {
  const file = (await verificationOf(deps, actor, facilityId, sensorId, id)).record.certificate_file;
  const stored = file && (await storedFile(deps.blobs, file.key, file.name, CERTIFICATE_URL_SECONDS));
  if (!stored) throw new NotFound("Скан свидетельства о поверке не приложен");
  return stored;
}
