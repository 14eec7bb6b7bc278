// D80: the verifier's pack of a climate project's monitoring period
// (GET v1/climate-projects/{id}/periods/{p}/pack/), as the inventory's pack of an approved version
// (verification-pack.ts), whose signed manifest, zip and verify.py it shares. It holds the readings
// of every meter of the monitoring plan as the period read them (minutes/*.csv, kept with the period:
// domain/climate/period-minutes.ts), the plan with each meter's kind and поверка instants and the
// period's hours on the company's clock (plan.json), the calibration register (register.csv), each
// device's hourly table (hours/*.csv, an hour a row), the deviations (deviations.csv), the totals and
// carbon units (totals.json), the period as stored (period.json: its bounds, declared figures,
// parameters and result), the report on implementation (report/report.pdf and .xlsx), a manifest of every file's SHA-256 with the platform's signature over it,
// and verify.py, which recomputes every hour, the deviations and the totals from the readings by
// methodology section 13 and exits 1 naming what differs. Where the pack would pass the registry's
// attachment limit (LIMITS.climate.packPartBytes, 100 MB; the host's config may lower it) it is
// split into parts, each a zip within the limit, one manifest over all (in the first part with
// verify.py), handed out as one zip of the parts. The pack is made from what the period stored, and
// every byte of it (the zip's dates too) from the period's own moment: the same bytes on every download.
import { includedDays } from "../domain/climate/period-record";
import { READING_DAYS_FILE, readingDaysFile } from "./reading-days";
import { createHash } from "node:crypto";
import { SENSOR_KINDS } from "@core/monitoring";
import { wallTimeIn, zoneOf } from "@core/company-clock";
import type { ClimateEvaluation } from "@core/climate-project";
import type { Actor, Deps } from "../domain/context";
import { climateReportSources } from "../domain/climate/report";
import type { ClimateReportSources } from "../domain/climate/report-content";
import { type ApprovedPeriodSnapshot, approvedSnapshot } from "../domain/climate/approvals";
import { HOUR_MS } from "@core/dates";
import { climateReportBytes } from "./climate-report";
import { Conflict, NotFound } from "../domain/errors";
import { CLIMATE_PERIOD_NOT_FOUND } from "../domain/climate/periods";
import { CLIMATE_PROJECT_NOT_FOUND } from "../domain/climate/projects";
import { type PeriodMinutes, periodMinutes } from "../domain/climate/period-minutes";
import type { ClimatePeriodRecord, ClimateProject } from "../ports";
import { safeFileName } from "../files/file-names";
import { PACK_FORMAT, PACK_MANIFEST_FORMAT, type ExportResult } from "./formats";
import { handOut, type ExportDeps } from "./project-export";
import { csvCell, jsonFile, manifestEntries, signedManifest, verifyScript } from "./pack-files";
import { stampZip, zipOf, zipParts, type ZipEntry } from "./zip-writer";
import { DEVIATION_NAMES } from "../contract/climate-deviations";

/** What the manifest names a climate period's pack by (verify.py reads the pack by it). */
export const CLIMATE_PACK_KIND = "climate_period";
/** The folder of the executor's КЭП over manifest.json in the pack (verify.py names them, unlisted). */
export const KEP_FOLDER = "kep";

export interface ClimatePackRequest {
  project: string;
  period: string;
  /** The largest part (the registry's attachment limit, LIMITS.climate.packPartBytes unless the host lowers it). */
  partBytes: number;
  inlineLimitBytes?: number;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
/** «;»-separated, CRLF, a byte-order mark so that a spreadsheet opens the Cyrillic as UTF-8 (as coefficients.csv). */
const csvFile = (rows: readonly (readonly unknown[])[]) => utf8(`\uFEFF${rows.map((row) => row.map(csvCell).join(";")).join("\r\n")}\r\n`);
/** A number as JavaScript writes it (the shortest text that reads back as the same double), empty for none. */
const figure = (value: number | null | undefined) => (typeof value === "number" ? String(value) : "");
/** A file name's part from a code or a device's name: letters, digits, «-», «_» and «.» kept. */
const fileStem = (index: number, name: string) => `${String(index + 1).padStart(2, "0")}_${name.replace(/[^\p{L}\p{N}._-]+/gu, "_")}`;

/** The hourly table's columns (verify.py reads them in this order). */
const HOUR_HEADER = [
  "Час (время компании)",
  "Начало часа (UTC)",
  "Данные достоверны",
  "КПД",
  "Основание КПД",
  "V_CH4, м3",
  "M_CH4, т",
  "BE_CH4, т CO2-экв",
  "PE_UM, т CO2-экв",
  "PE_MD, т CO2",
  "ER_CH4, т CO2-экв",
  "E_gen, МВт·ч",
  "E_cred, МВт·ч",
  "H, ГДж",
  "H_cred, ГДж",
  "Нет минут (по каналам)",
  "Замещено минут (по каналам)",
];

/** The company's clock's label of each hour of the period, as the period's hours are labelled. */
const hourLabels = (startUtc: string, hours: number, zone: string) =>
  Array.from({ length: hours }, (_, h) => wallTimeIn(new Date(Date.parse(startUtc) + h * HOUR_MS), zone).slice(0, 13));

const counts = (value: Readonly<Record<string, number | undefined>>) =>
  Object.entries(value)
    .map(([channel, n]) => `${channel}=${n}`)
    .join(" ");

/** A device's hours, a row each: the stored blocks repeated as many hours as they stand for. */
function hourTable(device: ClimateEvaluation["devices"][number], labels: readonly string[], startUtc: string): Uint8Array {
  const rows: unknown[][] = [HOUR_HEADER];
  let h = 0;
  for (const block of device.blocks) {
    for (let r = 0; r < block.repeat; r++, h++) {
      rows.push([
        labels[h],
        new Date(Date.parse(startUtc) + h * HOUR_MS).toISOString(),
        block.valid ? "1" : "0",
        figure(block.eta),
        block.eta_basis,
        figure(block.v_ch4_m3),
        figure(block.m_ch4_t),
        figure(block.be_ch4_t_co2e),
        figure(block.pe_um_t_co2e),
        figure(block.pe_md_t_co2),
        figure(block.er_ch4_t_co2e),
        figure(block.e_gen_mwh),
        figure(block.e_cred_mwh),
        figure(block.heat_gj),
        figure(block.heat_cred_gj),
        counts(block.missing_min),
        counts(block.substituted_min),
      ]);
    }
  }
  return csvFile(rows);
}

/** Each meter's readings in the period: the instant (UTC) and the value as read. */
function readingsFile(meter: PeriodMinutes["meters"][number]): Uint8Array {
  const lines = ["время (UTC);значение"];
  for (let i = 0; i < meter.times.length; i++) lines.push(`${new Date(meter.times[i]).toISOString()};${meter.values[i]}`);
  return utf8(`${lines.join("\n")}\n`);
}

/** Which device's channel each meter serves, as the register says it. */
function servesOf(minutes: PeriodMinutes): Map<string, string[]> {
  const serves = new Map<string, string[]>();
  const add = (code: string, what: string) => serves.set(code, [...(serves.get(code) ?? []), what]);
  for (const device of minutes.plan.devices)
    for (const [channel, code] of Object.entries(device.sensors)) if (code) add(code, `${device.name}: ${channel}`);
  if (minutes.plan.e_own_sensor) add(minutes.plan.e_own_sensor, "собственные нужды");
  return serves;
}

/** The calibration register: each meter of the plan with its kind, unit, range and поверка dates. */
function registerFile(minutes: PeriodMinutes, files: ReadonlyMap<string, string>): Uint8Array {
  const serves = servesOf(minutes);
  const rows: unknown[][] = [
    ["Код", "Устройство и канал", "Вид", "Единица", "Диапазон от", "Диапазон до", "Поверка с", "Поверка по", "Показаний в периоде", "Файл"],
  ];
  for (const meter of minutes.meters) {
    const rule = SENSOR_KINDS[meter.kind];
    rows.push([
      meter.code,
      (serves.get(meter.code) ?? []).join(", "),
      rule.label,
      rule.unit,
      figure(rule.min),
      Number.isFinite(rule.max) ? figure(rule.max) : "",
      meter.in_service_from ?? "",
      meter.in_service_to ?? "",
      meter.times.length,
      files.get(meter.code),
    ]);
  }
  return csvFile(rows);
}

function deviationsFile(result: ClimateEvaluation): Uint8Array {
  const rows: unknown[][] = [["Устройство", "Часы (время компании)", "Часов", "Отклонение", "Вид", "Подробности"]];
  for (const d of result.deviations) {
    rows.push([d.device, d.label ?? "весь период", d.hours, DEVIATION_NAMES[d.kind], d.kind, JSON.stringify(d.detail)]);
  }
  return csvFile(rows);
}

/** The report on implementation (Order 248 Annex 4; export/climate-report.ts) as PDF
 *  and xlsx, from the same sources as the report's own route, dated by the period's moment so that the
 *  pack is the same bytes for the same period state (the executor's fields are the report's). */
async function reportFiles(
  deps: ExportDeps,
  actor: Actor,
  record: ClimatePeriodRecord,
  frozen: Frozen | undefined,
  minutes: PeriodMinutes,
): Promise<ZipEntry[]> {
  // The report's sources read the repositories and the period's blobs alone: what the worker's ports hold.
  const sources = await climateReportSources(deps as Deps, actor, record.project, record.id);
  const dated: ClimateReportSources = { ...sources, issued: new Date(record.created_at) };
  if (frozen) {
    // An approved period's report prints what the approval froze — the project, the legal entity's
    // requisites, its facility and points — and its meters as the period read them, so that a later
    // change of any of them moves no byte of the pack (the executor's own fields are the report's).
    const entity = frozen.legal_entity;
    dated.project = frozen.project;
    dated.company = { ...sources.company, ...entity.requisites };
    const facility = entity.facilities.find((f) => f.id === frozen.project.facility);
    if (sources.facility && facility) dated.facility = { ...sources.facility, ...facility };
    if (entity.points) {
      const frozenPoints = new Map(entity.points.map((p) => [p.id, p]));
      dated.points = sources.points.map((p) => ({ ...p, ...frozenPoints.get(p.id) }));
    }
  }
  const sensors = new Map(sources.sensors);
  for (const meter of minutes.meters) {
    const live = sensors.get(meter.code);
    if (live) {
      const { kind, point, in_service_from, in_service_to } = meter;
      sensors.set(meter.code, { ...live, kind, point, in_service_from, in_service_to });
    }
  }
  dated.sensors = sensors;
  const [pdf, xlsx] = await Promise.all([climateReportBytes(dated, "pdf"), climateReportBytes(dated, "xlsx")]);
  return [
    { name: "report/report.pdf", bytes: pdf },
    // exceljs dates the workbook's own zip entries by the clock: dated by the period's moment instead.
    { name: "report/report.xlsx", bytes: stampZip(xlsx, new Date(`${wallTimeIn(record.created_at, sources.zone)}Z`)) },
  ];
}

/** What an approved period's approval froze (domain/climate/approvals.ts). */
type Frozen = ApprovedPeriodSnapshot;

/** The period's pack as files: everything but the manifest and verify.py (`files`), verify.py, and
 *  the manifest over them. Made from what the period stored: the same for the same period state. An
 *  approved period's pack is made from the snapshot its approval froze (its figures, inputs, project
 *  and legal entity) and the readings the approved computation read: a change of the project, the
 *  requisites or the readings after the approval moves none of its bytes (readings written later only
 *  flag the period). */
async function packContents(deps: ExportDeps, actor: Actor, request: Pick<ClimatePackRequest, "project" | "period">) {
  const project: ClimateProject | undefined = await deps.repos.climateProjects.get(actor.company, request.project);
  if (!project) throw new NotFound(CLIMATE_PROJECT_NOT_FOUND);
  const record = await deps.repos.climateProjects.getPeriod(actor.company, project.id, request.period);
  const stored = record && (await deps.blobs.get(record.blob));
  if (!record || !stored) throw new NotFound(CLIMATE_PERIOD_NOT_FOUND);
  const minutes = await periodMinutes(deps, record);
  if (!minutes) {
    throw new Conflict(
      "Пакет этого периода не собрать: период вычислен до того, как платформа сохраняла показания его счетчиков. Вычислите период заново",
    );
  }
  const frozen = record.approval ? await approvedSnapshot(deps, record) : undefined;
  const computed = JSON.parse(new TextDecoder().decode(stored.body)) as {
    inputs: { period: Record<string, unknown> };
    result: ClimateEvaluation;
  };
  const { inputs, result } = frozen
    ? { inputs: frozen.inputs as unknown as { period: Record<string, unknown> }, result: frozen.result }
    : computed;
  const live = await deps.repos.companies.get(actor.company);
  const company = live && frozen ? { ...live, ...frozen.legal_entity.requisites } : live;
  const shown = frozen ? frozen.project : project;
  const zone = zoneOf(company);
  const labels = hourLabels(record.start_utc, record.hours, zone);

  const files: ZipEntry[] = [];
  const meterFiles = new Map(minutes.meters.map((m, i) => [m.code, `minutes/${fileStem(i, m.code)}.csv`]));
  // The period's figures as computed; its approval state and the flag of readings written since
  // (domain/climate/approvals.ts) change without them and are not the pack's.
  const {
    blob: _blob,
    company: _company,
    version: _version,
    approval: _approval,
    history: _history,
    readings_changed: _changed,
    ...bounds
  } = frozen ? { ...record, ...frozen.period } : record;
  files.push({
    name: "period.json",
    bytes: jsonFile({
      company: company?.name ?? null,
      project: { id: shown.id, name: shown.name, methodology: shown.methodology },
      time_zone: zone,
      period: bounds,
      inputs: { period: inputs.period },
      rules_version: result.rules_version,
      params: result.params,
      result: { totals: result.totals, devices: result.devices.map(({ blocks: _b, ...device }) => device), deviations: result.deviations },
    }),
  });
  files.push({
    name: "plan.json",
    bytes: jsonFile({
      start_utc: record.start_utc,
      end_utc: record.end_utc,
      hours: record.hours,
      hour_labels: labels,
      devices: minutes.plan.devices.map((device, i) => ({ ...device, hours_file: `hours/${fileStem(i, device.name)}.csv` })),
      e_own_sensor: minutes.plan.e_own_sensor,
      meters: minutes.meters.map(({ times, values: _v, ...meter }) => ({
        ...meter,
        readings: times.length,
        file: meterFiles.get(meter.code),
      })),
    }),
  });
  files.push({ name: "totals.json", bytes: jsonFile({ carbon_units: result.totals.carbon_units, totals: result.totals }) });
  files.push({ name: "register.csv", bytes: registerFile(minutes, meterFiles) });
  files.push({ name: "deviations.csv", bytes: deviationsFile(result) });
  result.devices.forEach((device, i) => {
    files.push({ name: `hours/${fileStem(i, device.id)}.csv`, bytes: hourTable(device, labels, record.start_utc) });
  });
  for (const meter of minutes.meters) files.push({ name: meterFiles.get(meter.code)!, bytes: readingsFile(meter) });
  // the readings per meter and day, for verify.py --reconcile (reading-days.ts).
  files.push({
    name: READING_DAYS_FILE,
    bytes: readingDaysFile(
      [
        {
          files: minutes.meters.map((m) => ({ meter: m.code, file: meterFiles.get(m.code)! })),
          from: Date.parse(record.start_utc),
          to: Date.parse(record.end_utc),
          meters: minutes.meters,
        },
      ],
      zone,
    ),
  });
  files.push(...(await reportFiles(deps, actor, record, frozen, minutes)));
  files.push({ name: "verify.py", bytes: await verifyScript() });

  const manifest = {
    format: PACK_MANIFEST_FORMAT,
    kind: CLIMATE_PACK_KIND,
    company: company?.name ?? null,
    project: { id: shown.id, name: shown.name },
    period: {
      id: record.id,
      start: record.start,
      end: record.end,
      start_utc: record.start_utc,
      end_utc: record.end_utc,
      hours: record.hours,
    },
    rules_version: result.rules_version,
    // The period's moment, not the download's: the same bytes whenever it is asked for.
    computed_at: record.created_at,
    files: manifestEntries(files),
  };
  const script = files.pop()!;
  return { project: shown, record, zone, manifest, script, files };
}

/** The file the executor signs with their КЭП (domain/climate/signatures.ts): the
 *  pack's manifest.json, byte for byte as the pack carries it, which names every file of the pack by
 *  its SHA-256 — one signature binds the executor to the report, the readings and the figures alike. */
export async function climatePackManifest(
  deps: ExportDeps,
  actor: Actor,
  request: Pick<ClimatePackRequest, "project" | "period">,
): Promise<{ file_name: string; bytes: Uint8Array }> {
  const { project, record, manifest } = await packContents(deps, actor, request);
  return {
    file_name: safeFileName(
      `Манифест пакета ${project.name} ${includedDays(record).first}–${includedDays(record).last}.json`,
      "manifest.json",
    ),
    bytes: jsonFile(manifest),
  };
}

/** The executor's КЭП kept with the period over this very manifest, as the pack carries them beside
 *  it: kep/manifest.json.N.sig (DER), outside the manifest's list — each signs the manifest. A
 *  signature over an earlier state of the period's manifest is not carried. */
async function signatureFiles(deps: ExportDeps, record: ClimatePeriodRecord, manifestBytes: Uint8Array): Promise<ZipEntry[]> {
  const sha = createHash("sha256").update(manifestBytes).digest("hex");
  const kept = await deps.repos.climateSignatures.list(record.company, record.project, record.id);
  return kept
    .filter((k) => k.file_sha256 === sha)
    .map((k, i) => ({
      name: `${KEP_FOLDER}/manifest.json.${i + 1}.sig`,
      bytes: new Uint8Array(Buffer.from(k.signature_base64, "base64")),
    }));
}

/** The period's pack: the files, the signed manifest, the executor's КЭП, the zip (or the zip of its parts). */
export async function climatePack(deps: ExportDeps, actor: Actor, request: ClimatePackRequest): Promise<ExportResult> {
  const { signer } = deps;
  if (!signer) throw new Error("climate pack: this host has no signer to sign its manifest");
  const { project, record, zone, manifest, script, files } = await packContents(deps, actor, request);
  // The manifest, its signatures (the platform's, the executor's КЭП) and verify.py first: they open
  // the first part of a split pack.
  const kep = await signatureFiles(deps, record, jsonFile(manifest));
  const entries = [...(await signedManifest(signer, manifest)), ...kep, script, ...files];
  // A zip entry's time has no zone: the company's wall clock at the period's moment.
  const at = new Date(`${wallTimeIn(record.created_at, zone)}Z`);
  const parts = zipParts(entries, at, request.partBytes);
  const stem = `Пакет верификации ${project.name} ${includedDays(record).first}–${includedDays(record).last}`;
  const zip =
    parts.length === 1
      ? parts[0]
      : zipOf(
          parts.map((bytes, i) => ({ name: safeFileName(`${stem} часть ${i + 1} из ${parts.length}.zip`, `Part ${i + 1}.zip`), bytes })),
          at,
        );
  return handOut(deps, actor, zip, {
    fileName: safeFileName(`${stem}${parts.length === 1 ? "" : ` (в ${parts.length} частях)`}.zip`, "Climate pack.zip"),
    contentType: PACK_FORMAT.contentType,
    keyPrefix: `climate-${record.id}`,
    extension: "zip",
    inlineLimitBytes: request.inlineLimitBytes,
  });
}
