// D34: the verification pack of an approved version (GET v1/inventory/{year}/versions/{n}/pack/): a
// zip a verifier checks offline. It holds the snapshot as stored (RFC 8785; the bytes its listed
// SHA-256 is over), each calculation's inputs, results and coefficients in a file of its own, the
// coefficients with value, unit, source and tier as a table, the evidence files the calculations
// name, the passport of the version as PDF and xlsx, the rules the lines are made by (which result
// is which gas, the methane basis of each type), a manifest with every file's SHA-256, and
// verify.py (export/verify/verify.py; Python 3's standard library only), which recomputes every
// line, the netting, the totals and the hash from these files. the security review's R9: the manifest (its
// format, the version and every file's SHA-256) is signed with the platform's version key
// (manifest.sig.json), so that no file of the pack can be changed, added or dropped with the
// manifest re-hashed; verify.py also reads the passport's and the coefficients' figures back
// against the snapshot. Rendered in the spreadsheet worker
// like the passport it contains (export/inventory-report.ts), with its bounds, job and hand-out.
import { metersOfEvidence, READING_DAYS_FILE, readingDaysFile, type ReadingSet } from "./reading-days";
import { wallTimeIn, zoneOf } from "@core/company-clock";
import { INVENTORY_SOURCES } from "@core/inventory";
import { TIER_LABELS, tierOf } from "@core/coefficient-sources";
import { REGISTRY, isCalculationType } from "@core/registry";
import type { Actor } from "../domain/context";
import { NotFound } from "../domain/errors";
import { getReview } from "../domain/inventory/review";
import { approvedVersionNumbers, snapshotText, type InventorySnapshot, type SnapshotLine } from "../domain/inventory/versions";
import { safeFileName } from "../files/file-names";
import { describeCoefficient } from "./content";
import { PACK_FORMAT, PACK_MANIFEST_FORMAT, type ExportResult, type PassportRequest } from "./formats";
import { fieldOf } from "./inventory-passport";
import { renderPassport } from "./inventory-report";
import { handOut, type ExportDeps } from "./project-export";
import { zipOf, type ZipEntry } from "./zip-writer";
import { csvCell, jsonFile, manifestEntries, signedManifest, utf8, verifyScript } from "./pack-files";
import { acceptedEvidenceKey } from "../domain/monitoring/minutes/accepted-evidence";
import type { OfferAcceptance } from "../ports";
import { snapshotComparison } from "../domain/inventory/measured-vs-estimated";
import { instrumentsFiles, type UsedMonth } from "./pack-instruments";

/** the pack's file of the measured-against-estimated comparison. */
export const COMPARISON_FILE = "comparison.json";

/** The calculation files' names: in the snapshot's order, so a verifier finds line n as file n. */
export const calculationFile = (index: number) => `calculations/${String(index + 1).padStart(4, "0")}.json`;

/** What verify.py reads the lines by: each inventory type's gases and the result each comes from,
 *  and the methane basis (D17) a mining type has when its inputs state none. */
/** The rules of the types the platform offered when the version was approved: a type added later
 *  (its inventory source's `since`) would change an approved version's pack. */
function packRules(approvedAt: string) {
  const day = approvedAt.slice(0, 10);
  return {
    types: Object.fromEntries(
      Object.entries(INVENTORY_SOURCES)
        .filter(([, source]) => !source.since || source.since <= day)
        .map(([type, source]) => [
          type,
          {
            category: source.category,
            gases: source.gases.map((g) => ({ gas: g.gas, result: g.result })),
            basis: (isCalculationType(type) ? (REGISTRY[type] as { basis?: string }).basis : undefined) ?? null,
          },
        ]),
    ),
  };
}

/** Every coefficient of every line: value, unit, source and tier (D29), as the passport prints them. */
function coefficientsTable(lines: readonly SnapshotLine[]): Uint8Array {
  const rows = [["Файл расчета", "Расчет", "Код МГЭИК", "Коэффициент", "Значение", "Единица", "Источник", "Уровень"]];
  lines.forEach((line, index) => {
    for (const [name, use] of Object.entries(line.coefficients ?? {})) {
      const label = fieldOf(line.type, name)?.label;
      rows.push([
        calculationFile(index),
        line.name,
        line.ipcc_code,
        label ? `${label} (${name})` : name,
        String(use.value),
        use.unit,
        describeCoefficient(use) ?? "",
        TIER_LABELS[tierOf(line.type, name, use.source)],
      ]);
    }
  });
  // A byte-order mark, so that a spreadsheet opens the Cyrillic as UTF-8; «;» as Russian Excel splits.
  return utf8(`\uFEFF${rows.map((row) => row.map(csvCell).join(";")).join("\r\n")}\r\n`);
}

/** The readings files of the line `index`: the readings as their SHA-256 is over, and what the month
 *  is recomputed from. */
export const readingsFiles = (index: number) => {
  const stem = `telemetry/${String(index + 1).padStart(4, "0")}`;
  return { csv: `${stem}.csv`, json: `${stem}.json` };
};

/** D63: each line of the version that is a month accepted from the mine's АГК gets the readings behind
 *  it (as stored when it was accepted) and its window and sensors, so verify.py recomputes the month's
 *  volume, content and t CH4 from the minute values; a month accepted before these were kept is listed
 *  as missing. */
export async function acceptedMonths(deps: ExportDeps, company: string, lines: readonly SnapshotLine[]) {
  const facilities = [...new Set(lines.map((l) => l.facility).filter((f): f is string => typeof f === "string" && f !== ""))];
  const byCalculation = new Map<string, OfferAcceptance>();
  for (const facility of facilities) {
    for (const acceptance of await deps.repos.monitoring.acceptances(company, facility))
      byCalculation.set(acceptance.calculation, acceptance);
  }
  const files: ZipEntry[] = [];
  const sets: ReadingSet[] = [];
  const listed: Array<{ calculation: string; readings: string; month: string; point: string; readings_sha256: string }> = [];
  const used: UsedMonth[] = [];
  const missing: Array<{ calculation: string; month: string; point: string }> = [];
  for (const [index, line] of lines.entries()) {
    const acceptance = byCalculation.get(line.id);
    if (!acceptance) continue;
    const [csv, json] = await Promise.all([
      deps.blobs.get(acceptedEvidenceKey(acceptance, "csv")),
      deps.blobs.get(acceptedEvidenceKey(acceptance, "json")),
    ]);
    const names = readingsFiles(index);
    const point =
      (JSON.parse(new TextDecoder().decode(json?.body ?? utf8("{}"))) as { point_name?: string }).point_name ?? acceptance.point;
    if (!csv || !json) {
      missing.push({ calculation: calculationFile(index), month: acceptance.month, point });
      continue;
    }
    files.push({ name: names.csv, bytes: csv.body }, { name: names.json, bytes: json.body });
    // its readings per meter and day, for verify.py --reconcile (reading-days.ts).
    const window = JSON.parse(new TextDecoder().decode(json.body)) as { start_ms: number; minutes: number };
    const meters = metersOfEvidence(csv.body);
    sets.push({
      files: meters.map((m) => ({ meter: m.code, file: names.csv })),
      from: window.start_ms,
      to: window.start_ms + window.minutes * 60_000,
      meters,
    });
    used.push({
      calculation: calculationFile(index),
      month: acceptance.month,
      facility: acceptance.facility,
      from: window.start_ms,
      to: window.start_ms + window.minutes * 60_000,
      codes: meters.map((m) => m.code),
    });
    listed.push({
      calculation: calculationFile(index),
      readings: names.csv,
      month: acceptance.month,
      point,
      readings_sha256: acceptance.readings_sha256,
    });
  }
  return { files, listed, missing, sets, used };
}

/** The pack of version `request.version` of the year, as a zip handed out like the passport. */
export async function verificationPack(
  deps: ExportDeps,
  actor: Actor,
  request: Omit<PassportRequest, "format"> & { inlineLimitBytes?: number },
): Promise<ExportResult> {
  const { year, version } = request;
  if (version === undefined) throw new NotFound(`Версия инвентаризации ${year} года не указана`);
  const { signer } = deps;
  if (!signer) throw new Error("verification pack: this host has no version signer to sign its manifest");
  const review = await getReview(deps, actor.company, year);
  const listed = (await approvedVersionNumbers(deps, actor.company, review)).find((v) => v.version === version);
  if (!listed) throw new NotFound(`Версия ${version} инвентаризации ${year} года не найдена`);
  const { item, text } = await snapshotText(deps, actor.company, year, version);
  const snapshot = JSON.parse(text) as InventorySnapshot;
  const lines = snapshot.inventory.calculations;

  const [pdf, xlsx, script] = await Promise.all([
    renderPassport(deps, actor, { year, version, format: "pdf", progress: request.progress }),
    renderPassport(deps, actor, { year, version, format: "xlsx" }),
    verifyScript(),
  ]);
  const files: ZipEntry[] = [
    { name: "snapshot.json", bytes: utf8(text) },
    {
      name: "version.json",
      bytes: jsonFile({
        company: snapshot.legal_entity?.requisites.name ?? null,
        year,
        version,
        sha256: item.sha256,
        approved_at: item.approved_at,
        approved_by: item.approved_by,
        total_t_co2e: item.total_t_co2e,
        calculations: item.calculations,
        // the platform's signature over sha256; verify.py --public-key checks it.
        signature: item.signature ?? null,
      }),
    },
    { name: "rules.json", bytes: jsonFile(packRules(item.approved_at)) },
    // D86: each mine's measurement against its estimate, as the version's lines give it;
    // verify.py recomputes it from the snapshot's calculations.
    { name: COMPARISON_FILE, bytes: jsonFile(snapshotComparison(snapshot)) },
  ];
  const evidence: Array<{ file: string; calculation: string; coefficient: string; name: string }> = [];
  const missing: Array<{ calculation: string; coefficient: string; name: string }> = [];
  for (const [index, line] of lines.entries()) {
    const { id, name, type, ipcc_code, facility, point, project, counted, period, inputs, results, coefficients, gases, netting } = line;
    files.push({
      name: calculationFile(index),
      bytes: jsonFile({
        id,
        name,
        type,
        ipcc_code,
        facility,
        point,
        ...(line.drainage_points ? { drainage_points: line.drainage_points } : {}),
        project,
        counted,
        period,
        inputs,
        results,
        coefficients,
        gases,
        netting,
      }),
    });
    for (const [field, use] of Object.entries(coefficients ?? {})) {
      if (!use.evidence) continue;
      const blob = await deps.blobs.get(use.evidence.key);
      const file = `evidence/${String(index + 1).padStart(4, "0")}-${field}.${use.evidence.format}`;
      // A file replaced after a later reopening is gone: the manifest says which.
      if (!blob) missing.push({ calculation: calculationFile(index), coefficient: field, name: use.evidence.name });
      else {
        files.push({ name: file, bytes: blob.body });
        evidence.push({ file, calculation: calculationFile(index), coefficient: field, name: use.evidence.name });
      }
    }
  }
  const accepted = await acceptedMonths(deps, actor.company, lines);
  files.push(...accepted.files);
  const company = await deps.repos.companies.get(actor.company);
  if (accepted.sets.length > 0) files.push({ name: READING_DAYS_FILE, bytes: readingDaysFile(accepted.sets, zoneOf(company)) });
  // the checks and verifications of the sensors those months used, as recorded by the approval.
  // The verifications' certificate scans attached by then ride beside it, under instruments/certificates/.
  files.push(...(await instrumentsFiles(deps, actor.company, accepted.used, item.approved_at, zoneOf(company))));
  files.push(
    { name: "coefficients.csv", bytes: coefficientsTable(lines) },
    { name: "passport.pdf", bytes: pdf.bytes },
    { name: "passport.xlsx", bytes: xlsx.bytes },
    { name: "verify.py", bytes: script },
  );
  const manifest = {
    // the security review's R9: signed (manifest.sig.json); verify.py refuses a file this list does not name.
    format: PACK_MANIFEST_FORMAT,
    company: snapshot.legal_entity?.requisites.name ?? null,
    year,
    version,
    sha256_of_snapshot: item.sha256,
    // The approval's moment, not the download's: an approved version's documents are the same bytes
    // whenever they are asked for (D39, version-documents.test.ts).
    approved_at: item.approved_at,
    files: manifestEntries(files),
    evidence,
    ...(missing.length > 0 ? { evidence_missing: missing } : {}),
    // D63: the minute values behind each month accepted from the mine's АГК (none: no key, as before).
    ...(accepted.listed.length > 0 ? { telemetry: accepted.listed } : {}),
    ...(accepted.missing.length > 0 ? { telemetry_missing: accepted.missing } : {}),
  };
  files.push(...(await signedManifest(signer, manifest)));

  // A zip entry's time has no zone: the company's wall clock at the approval, as its staff read it.
  const zip = zipOf(files, new Date(`${wallTimeIn(item.approved_at, zoneOf(company))}Z`));
  return handOut(deps, actor, zip, {
    fileName: safeFileName(`Пакет верификации ${year} версия ${version}.zip`, `Pack ${year} v${version}.zip`),
    contentType: PACK_FORMAT.contentType,
    keyPrefix: `inventory-${year}`,
    extension: "zip",
    inlineLimitBytes: request.inlineLimitBytes,
  });
}
