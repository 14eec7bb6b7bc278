// the verification pack of an approved year carries the instruments' record behind each
// month it took from the mine's АГК (D63, D94): for every sensor whose readings the month's evidence holds,
// its checks done in the month's window (and the last one before it, which qualifies the window's start) in
// the «Метан» journal's columns, and its state verifications recorded by then. Only what was written (and
// signed) by the version's approval is carried, so the pack of an approved version stays the same bytes
// whenever it is asked for (D39): a check or a verification recorded after is not in it, nor a certificate's
// scan attached after. A scan attached by then is carried beside the file, under instruments/certificates/
// (numbered in the order the file first names it), the manifest listing its SHA-256 as every file's. A
// verification corrected by the approval names the record that corrects it (`record`, `corrected_by`) and
// the correction the one it corrects (`record`, `corrects`) — only where a correction was written by then,
// so a pack approved before keeps its bytes; the corrected one no longer counts (verificationsInForce).
import { CHECK_DUTIES, CHECK_DUTY_LABELS, CHECK_KIND_LABELS, CHECK_RESULT_LABELS } from "@core/sensor-checks";
import { isoDateIn } from "@core/company-clock";
import { initialsByEmail } from "../domain/person-name";
import { registerAt } from "../domain/monitoring/ingest/register";
import type { ExportDeps } from "./project-export";
import type { SensorVerification } from "../ports";
import { jsonFile } from "./pack-files";
import type { ZipEntry } from "./zip-writer";

export const INSTRUMENTS_FILE = "instruments.json";
/** Where a verification's certificate scan is carried: NNNN.{pdf|png|jpg}. */
export const CERTIFICATES_FOLDER = "instruments/certificates";

/** A month the version took from the АГК: its calculation's file, facility, window and the meters' codes. */
export interface UsedMonth {
  calculation: string;
  month: string;
  facility: string;
  from: number;
  to: number;
  codes: readonly string[];
}

/** The file's content, or null when no month was taken from the АГК. */
export async function instrumentsOfMonths(
  deps: Pick<ExportDeps, "repos">,
  company: string,
  used: readonly UsedMonth[],
  approvedAt: string,
  zone: string,
): Promise<unknown | null> {
  return (await instrumentsRecord(deps, company, used, approvedAt, zone))?.content ?? null;
}

/** The pack's files of the instruments' record: instruments.json and the certificate scans it names; none
 *  when no month was taken from the АГК. */
export async function instrumentsFiles(
  deps: Pick<ExportDeps, "repos" | "blobs">,
  company: string,
  used: readonly UsedMonth[],
  approvedAt: string,
  zone: string,
): Promise<ZipEntry[]> {
  const record = await instrumentsRecord(deps, company, used, approvedAt, zone);
  if (!record) return [];
  const files: ZipEntry[] = [{ name: INSTRUMENTS_FILE, bytes: jsonFile(record.content) }];
  for (const [name, key] of record.certificates) {
    // Never swept while its verification names it (domain/files/orphan-blobs.ts); a store that lost it
    // leaves the file out, and verify.py names it missing from the manifest's list.
    const blob = await deps.blobs.get(key);
    if (blob) files.push({ name, bytes: blob.body });
  }
  return files;
}

const withCertificate = <T>(file: T | null) => (file ? { certificate_file: file } : {});

/** A verification's part in a correction written by the approval: its record's id and the one it corrects
 *  or that corrects it; nothing where it has none (the bytes of a pack approved before stay, D39). */
function withCorrection(v: SensorVerification, correctedBy: ReadonlyMap<string, string>) {
  const by = correctedBy.get(v.id);
  if (!v.corrects && !by) return {};
  return { record: v.id, ...(v.corrects ? { corrects: v.corrects } : {}), ...(by ? { corrected_by: by } : {}) };
}

async function instrumentsRecord(
  deps: Pick<ExportDeps, "repos">,
  company: string,
  used: readonly UsedMonth[],
  approvedAt: string,
  zone: string,
): Promise<{ content: unknown; certificates: Map<string, string> } | null> {
  if (used.length === 0) return null;
  const approved = Date.parse(approvedAt);
  const written = (iso: string) => Date.parse(iso) <= approved;
  const nameOf = await initialsByEmail(deps.repos, company);
  /** The pack's file name of each certificate scan carried, by its blob key (a verification may serve several months). */
  const carried = new Map<string, string>();
  const certificateOf = (file: SensorVerification["certificate_file"]) => {
    if (!file || !written(file.uploaded_at)) return null;
    let name = carried.get(file.key);
    if (!name) carried.set(file.key, (name = `${CERTIFICATES_FOLDER}/${String(carried.size + 1).padStart(4, "0")}.${file.format}`));
    return { file: name, name: file.name, uploaded_by: nameOf(file.uploaded_by), uploaded_at: file.uploaded_at };
  };
  const facilities = new Map<string, Awaited<ReturnType<typeof readFacility>>>();
  async function readFacility(facility: string) {
    const [sensors, checks, verifications] = await Promise.all([
      deps.repos.sensors.listOfFacility(company, facility),
      deps.repos.sensorChecks.listOfFacility(company, facility, 0),
      deps.repos.sensorChecks.verificationsOfFacility(company, facility),
    ]);
    const kept = verifications.filter((v) => written(v.recorded_at));
    return {
      sensors,
      // The corrections written by the approval, by the record each corrects.
      correctedBy: new Map(kept.flatMap((v) => (v.corrects ? [[v.corrects, v.id] as const] : []))),
      checks: checks.filter((c) => written(c.created_at)).sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id)),
      verifications: kept.sort((a, b) => a.verified_on.localeCompare(b.verified_on) || a.id.localeCompare(b.id)),
    };
  }
  const months = [];
  for (const month of used) {
    if (!facilities.has(month.facility)) facilities.set(month.facility, await readFacility(month.facility));
    const { sensors, checks, verifications, correctedBy } = facilities.get(month.facility)!;
    const lastDay = isoDateIn(new Date(month.to - 1), zone);
    // Dated by the window's last day; a correction and the record it corrects go together, whatever their
    // days (a wrong day corrected: both are listed where either is dated so).
    const dated = (id: string | null | undefined) => verifications.some((v) => v.id === id && v.verified_on <= lastDay);
    const listed = (v: SensorVerification) => v.verified_on <= lastDay || dated(v.corrects) || dated(correctedBy.get(v.id));
    const ofCode = (code: string) =>
      sensors.find((s) => registerAt(s, month.from).code === code || registerAt(s, month.to - 1).code === code);
    months.push({
      calculation: month.calculation,
      month: month.month,
      window: { from: new Date(month.from).toISOString(), to: new Date(month.to).toISOString() },
      sensors: [...month.codes].sort().map((code) => {
        const sensor = ofCode(code);
        const own = sensor ? checks.filter((c) => c.sensor === sensor.id) : [];
        const before = own.filter((c) => Date.parse(c.at) < month.from).at(-1);
        const within = own.filter((c) => Date.parse(c.at) >= month.from && Date.parse(c.at) < month.to);
        return {
          code,
          checks: [...(before ? [before] : []), ...within].map((c) => ({
            at: c.at,
            shift: c.shift,
            kind: CHECK_KIND_LABELS[c.kind],
            reading_pct: c.reading_pct,
            reference_pct: c.reference_pct,
            reference_instrument: c.reference_instrument,
            button_test_ok: c.button_test_ok,
            test_gas_pct: c.test_gas_pct,
            test_gas_cylinder: c.test_gas_cylinder,
            alarm_ok: c.alarm_ok,
            cutoff_ok: c.cutoff_ok,
            result: CHECK_RESULT_LABELS[c.result],
            fault: c.fault,
            measures: c.measures,
            planned_work: c.planned_work,
            corrects_earlier: c.follows !== null,
            signatures: Object.fromEntries(
              CHECK_DUTIES.map((d) => {
                const given = c.signatures[d];
                return [CHECK_DUTY_LABELS[d], given && written(given.at) ? { by: nameOf(given.by), at: given.at } : null];
              }),
            ),
          })),
          verifications: (sensor ? verifications.filter((v) => v.sensor === sensor.id && listed(v)) : []).map((v) => ({
            instrument_type: v.instrument_type,
            register_number: v.register_number,
            serial: v.serial,
            verified_on: v.verified_on,
            valid_to: v.valid_to,
            certificate: v.certificate,
            // Only where a scan is carried: a pack approved before scans were kept stays the same bytes (D39).
            ...withCertificate(certificateOf(v.certificate_file)),
            ...withCorrection(v, correctedBy),
          })),
        };
      }),
    });
  }
  const content = {
    note: "Проверки датчиков («Журнал эксплуатации и обслуживания») и их поверки, записанные до утверждения версии, для датчиков, чьи показания вошли в принятые месяцы (D94)",
    approved_at: approvedAt,
    months,
  };
  return { content, certificates: new Map([...carried].map(([key, name]) => [name, key])) };
}
