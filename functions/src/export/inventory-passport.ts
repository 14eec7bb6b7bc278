// The 296-FZ report passport (docs/methodology.md, Inventory and the report; 8.1): the year's inventory as a company types it into
// the registry's form (Decree 707), as an xlsx workbook or a PDF: the legal entity, the period as
// dates, the person responsible and the date of signing, the version and its hash (D20), totals per
// gas with the other gases of 2979-р, the activity data per facility, per line the formula followed
// and each coefficient's tier, the measured sources with their periods, the methane balance (D17),
// the company's threshold verdict (D21) and the open checks. This module gathers what the document
// says, once, as numbers and texts; inventory-passport-xlsx.ts and inventory-passport-pdf.ts only
// lay it out, inventory-report.ts puts them together. docs/user-guide.md «Паспорт отчета» lists it.
import { agreementLine, compareMines, type ComparedLine } from "../domain/inventory/measured-vs-estimated";
import { uncertaintyCore } from "@core/uncertainty-node";
import { NO_FACILITY_NAME } from "../domain/inventory/checks";
import { coalMinedOf } from "../domain/inventory/coal";
import type { Inventory, InventoryCalculation } from "../domain/inventory/types";
import type { Company, EmissionPoint, Facility, InventoryReview, User } from "../ports";
import { TIER_LABELS, tierOf } from "@core/coefficient-sources";
import { MEASURED_VOLUME_LABEL, REGISTRY, fuelUnitOf, isCalculationType, type NumberField } from "@core/registry";
import {
  emissionPointKindInText,
  FACILITY_KINDS,
  IPCC_CODES,
  METHOD_LABELS,
  ORDER_371_CATEGORIES,
  STATUS_LABELS,
  TRANSITIONS,
  inventorySourceOf,
  type ReviewAction,
  type Transition,
  stepDone,
  thresholdVerdict,
  type Gas,
  type Order371Category,
} from "@core/inventory";
import type { SnapshotChanges, SnapshotLine } from "../domain/inventory/versions";
import { periodText } from "@core/source-periods";
import { DEFAULT_TIME_ZONE, dateText, zoneOf } from "@core/company-clock";
import { personName } from "../domain/person-name";
import type { MEASUREMENT_NOTES } from "@core/measured-release";
import { PURE_METHANE_MARK, methaneDestroyedBy } from "@core/methane-balance";
import { FLARE_EFFICIENCY } from "@core/types/fields";
import { describeCoefficient } from "./content";
import { formatNumber } from "./txt-writer";

/** A number with its unit and how many decimals it carries (the registry field's). */
export interface Quantity {
  label: string;
  value: number;
  unit: string;
  decimals: number;
}

export interface PassportCoefficient extends Quantity {
  /** The dictionary entry and its document, or «Фактическое значение» with its justification. */
  source: string;
  /** IPCC tier of the value: default (1), the company's own (2), measured (3). */
  tier: string;
}

export interface PassportSource {
  name: string;
  project: string;
  ipcc: string;
  method: string;
  /** The Order 371 formula or the IPCC equation the line follows. */
  formula: string;
  /** D19: the dates the line covers. */
  period: string;
  /** D25: its emission point with the instrument and frequency; "" for the facility as a whole. */
  point: string;
  /** With the tier of a measured volume (D29), "" for one the method takes as given. */
  activity: Array<Quantity & { tier: string }>;
  coefficients: PassportCoefficient[];
  /** The calculation's own results (gross where its basis is gross). */
  gases: Array<{ gas: Gas; t: number; t_co2e: number }>;
  /** D26: what the facility-year's netting takes off it («− направлено на сжигание (факел, котельная)»), per
   *  gas; empty when nothing. */
  netting: Array<{ gas: Gas; t: number; t_co2e: number }>;
  /** What counts: gases less netting. */
  net: Array<{ gas: Gas; t: number; t_co2e: number }>;
  /** The net CO2-eq of the source: what the category's subtotal adds. */
  t_co2e: number;
}

export interface PassportCategory {
  title: string;
  sources: PassportSource[];
  t_co2e: number;
}

export interface PassportFacility {
  name: string;
  /** Kind, licence and address, as far as the company entered them. */
  details: string;
  categories: PassportCategory[];
  t_co2e: number;
}

/** One gas of 2979-р: its mass and CO2-eq, or null with the note «не выбрасывается» (no source
 *  gives it off) or «не рассчитывается: …» (a source gives it off, its method does not compute it). */
export interface PassportGas {
  gas: string;
  t: number | null;
  t_co2e: number | null;
  note: string;
}

/** A figure of a facility's activity data (coal mined, fuel burnt by kind) with its own unit. */
export interface PassportActivity extends Quantity {
  facility: string;
}

/** D38: a device that burnt drained gas (a flare, boiler or gas engine): its own formula and what
 *  it burnt — the volume of the mixture, its CH4 and CO2 contents, and the factor it burnt it by. */
export interface PassportDestruction {
  facility: string;
  source: string;
  project: string;
  formula: string;
  period: string;
  frequency: string;
  instruments: string;
  /** Thousand m³ of the gas mixture. */
  volume: number;
  w_ch4: number;
  w_co2: number;
  /** Thousand m³ of CH4 in it. */
  ch4_volume: number;
  /** «газ принят за 100 % CH4» where the type assumes it, else "". */
  note: string;
  /** The oxidation factor, the flare's unburnt-gas factor CF or the IPCC flare's efficiency. */
  factor: { label: string; value: number };
}

/** A measured source (Order 371 formula 3.1): its periods, their frequency and instruments. */
export interface PassportMeasurement {
  facility: string;
  source: string;
  project: string;
  frequency: string;
  instruments: string;
  periods: Array<{ period: string; flow: number | null; hours: number | null; w_ch4: number; w_co2: number; volume: number }>;
}

/** D17: a facility's methane balance, t CH4. */
export interface PassportBalance {
  facility: string;
  rows: Array<{ label: string; t: number }>;
}

export interface Passport {
  title: string;
  /** Label and value: name, ОГРН, ИНН, КПП, ОКВЭД, address. */
  requisites: Array<[string, string]>;
  /** The reporting period as dates: «01.01.2025–31.12.2025». */
  period: string;
  /** The person responsible: name, position, phone, e-mail (label and value). */
  responsible: Array<[string, string]>;
  /** The date of signing: the approval of the version printed, or why there is none yet. */
  signing: string;
  year: number;
  /** The year's review status (domain/inventory/review.ts), and its approval and transitions. */
  status: string;
  approvals: string[];
  /** D20: the approved version the passport prints, with its hash; none for a year not frozen. */
  version?: { number: number; sha256: string; key?: string };
  /** What changed against the version before (title, then one line per change). */
  changes?: { title: string; lines: string[] };
  scope: string;
  gwp: string;
  facilities: PassportFacility[];
  /** By Order 371 category, IPCC code and gas, as the inventory sums them. */
  totals: Array<{ category: string; ipcc: string; gas: Gas; t: number; t_co2e: number }>;
  /** 8.1: per gas of 2979-р, CO2 and CH4 first. */
  gases: PassportGas[];
  activity: PassportActivity[];
  measurements: PassportMeasurement[];
  destruction: PassportDestruction[];
  balance: PassportBalance[];
  total_t_co2e: number;
  /** under a table whose rows, each rounded to EMISSION_DECIMALS, add up to other than
   *  its rounded total, the note that says so (by gas, by category and gas, by facility). */
  rounding: { gases?: string; totals?: string; facilities?: string };
  threshold: string;
  /** D86: in one line per mine whether its measurement and its estimate from coal agree. */
  measured_vs_estimated: string;
  checks: string[];
  footnote: string;
  generated: string;
  /** When the document is of: the approval of the version printed (D39), else when it was made;
   *  the files' own dates (PDF metadata, the workbook's properties and zip entries) are this. */
  issued: Date;
  /** The company's time zone (IANA), whose wall clock dates the files. */
  zone: string;
}

/** Every inventory type records its activity datum (coal mined, fuel burnt, gas released or
 *  flared) in its `volume` input; the other numbers it used are its coefficients. */
const ACTIVITY_INPUT = "volume";
/** The «Уровень» of activity data not measured by the facility (coal mined, fuel burnt): the tier is
 *  the method's (its factor's), not the activity datum's, and the cell says so rather than stay empty. */
export const ACTIVITY_WITHOUT_TIER = "не применяется: данные учета организации";
/** The stored GWP is not the passport's: the inventory converts CH4 with the year's set. */
const NOT_SHOWN = new Set([ACTIVITY_INPUT, "gwp_ch4"]);

const T_CO2E = "т CO2-экв.";
export const EMISSION_DECIMALS = 2;

/** The decimals a column of figures is printed with: as many as its most precise figure carries
 *  (at least two, never more than a figure's own), the same in every row, so a column never reads
 *  «845,5» under «0,0006». */
export function columnDecimals(figures: ReadonlyArray<Pick<Quantity, "value" | "decimals">>): number {
  let places = 2;
  for (const figure of figures) {
    const fraction = formatNumber(figure.value, Math.max(2, figure.decimals)).split(",")[1] ?? "";
    places = Math.max(places, fraction.replace(/0+$/, "").length);
  }
  return places;
}
/** One precision per unit: the decimals each unit's figures are printed with, wherever
 *  they stand in the passport — every «т» of coal alike (not «4 500 000,0000 т» because a fuel in
 *  another unit carries four), every device's «тыс. м³» of burnt gas alike. */
export function unitDecimals(figures: ReadonlyArray<Pick<Quantity, "value" | "decimals" | "unit">>): Map<string, number> {
  const byUnit = new Map<string, Array<Pick<Quantity, "value" | "decimals">>>();
  for (const figure of figures) byUnit.set(figure.unit, [...(byUnit.get(figure.unit) ?? []), figure]);
  return new Map([...byUnit].map(([unit, column]) => [unit, columnDecimals(column)]));
}

/** The passport's figures other than emissions by unit: its activity data and every source's
 *  activity and coefficients (the same unit in the table of one source and of another alike). */
export function passportUnitDecimals(p: Pick<Passport, "activity" | "facilities">): Map<string, number> {
  const sources = p.facilities.flatMap((f) => f.categories.flatMap((c) => c.sources));
  return unitDecimals([...p.activity, ...sources.flatMap((s) => [...s.activity, ...s.coefficients])]);
}

/** D38: the burnt gas's figures at one precision per unit across the devices (a boiler's gas as a
 *  flare's): the volumes (тыс. м³), the contents (% об.) and the factors (доля). */
export function destructionDecimals(p: Pick<Passport, "destruction">): { gas: number; share: number; factor: number } {
  const across = (values: number[]) => columnDecimals(values.map((value) => ({ value, decimals: 4 })));
  return {
    gas: across(p.destruction.flatMap((d) => [d.volume, d.ch4_volume])),
    share: across(p.destruction.flatMap((d) => [d.w_ch4, d.w_co2])),
    factor: across(p.destruction.map((d) => d.factor.value)),
  };
}

const CHECK_LEVELS = { error: "Ошибка", warning: "Предупреждение", info: "Сведения" } as const;

export const PASSPORT_FOOTNOTE =
  "Паспорт повторяет сведения, которые организация вносит в форму отчета о выбросах парниковых газов " +
  "в реестре (постановление Правительства РФ № 707). Это не формат файла для загрузки в реестр.";

type ReviewStep = InventoryReview["history"][number];

/** A step that stored a version: an approval, or «Доработка завершена» that approved (D33). */
const froze = (step: ReviewStep) =>
  Object.hasOwn(TRANSITIONS, step.action) &&
  Boolean((TRANSITIONS[step.action as ReviewAction] as Transition).freezes) &&
  step.to === TRANSITIONS[step.action as ReviewAction].to;

/** D39: the steps of the year's review up to the `approval`-th step that stored a version (the
 *  version's own approval); the steps after it belong to later versions. */
export function stepsUpTo(history: readonly ReviewStep[], approval: number): ReviewStep[] {
  let stored = 0;
  const own = history.findIndex((step) => froze(step) && ++stored === approval);
  return own < 0 ? [...history] : history.slice(0, own + 1);
}

/** Who approved and when, the notice of refusal, and every transition of the year's review; for an
 *  approved version (D39) its own approval and the steps up to it, as they were when it was
 *  approved. The dates on the company's clock. */
function approvalsOf(review: InventoryReview, users: User[], version: PassportData["snapshot"], zone: string): string[] {
  // The review records who acted by e-mail; each is named by the name they have now (one name per
  // person), else as the step recorded it.
  const nameOf = (email: string, recorded?: string) => {
    const user = users.find((u) => u.email === email);
    return (user && personName(user)) || recorded || email;
  };
  const plainDate = (date: string) => dateText(date, zone);
  const stepLine = (step: ReviewStep) => {
    // Past tense, as a register reads («утверждено»).
    const action = Object.hasOwn(TRANSITIONS, step.action) ? stepDone(step) : STATUS_LABELS[step.to];
    const dated = step.date ? ` ${plainDate(step.date)}` : "";
    return `${dateText(step.at, zone)}: ${action}${dated} (${nameOf(step.by, step.by_name)})${step.reason ? `: ${step.reason}` : ""}`;
  };
  if (version) {
    const steps = stepsUpTo(review.history, version.approval);
    const own = steps.at(-1);
    const approver = own && froze(own) ? nameOf(own.by, own.by_name) : nameOf(version.approved_by);
    return [`Утверждена ${dateText(version.approved_at, zone)}, ${approver}`, ...steps.map(stepLine)];
  }
  const lines: string[] = [];
  if (review.approved_at) {
    lines.push(`Утверждена ${dateText(review.approved_at, zone)}${review.approved_by ? `, ${nameOf(review.approved_by)}` : ""}`);
  }
  if (review.notice_date) {
    lines.push(
      `Уведомление о возврате отчета от ${plainDate(review.notice_date)}` +
        (review.rework_deadline ? `, срок доработки до ${plainDate(review.rework_deadline)}` : ""),
    );
    if (review.rework_deadline_warning) lines.push(`Внимание: ${review.rework_deadline_warning}`);
  }
  lines.push(...review.history.map(stepLine));
  return lines;
}

/** The status a passport prints: an approved version's as its approval left it (D39), else the year's. */
function statusOf(review: InventoryReview, version: PassportData["snapshot"]): string {
  if (!version) return STATUS_LABELS[review.status];
  const own = stepsUpTo(review.history, version.approval).at(-1);
  return STATUS_LABELS[own && froze(own) ? own.to : "approved"];
}

const categoryTitle = (category: Order371Category) => `Категория ${category}. ${ORDER_371_CATEGORIES[category]}`;
const ipccTitle = (code: string) => `${code} ${IPCC_CODES[code] ?? ""}`.trim();

/** The registry's number field `name` of a calculation type (its label, unit and decimals). */
export function fieldOf(type: string, name: string): NumberField | undefined {
  if (!isCalculationType(type)) return undefined;
  const def = REGISTRY[type];
  const field = [...def.inputs, ...def.settings].find((f) => f.name === name);
  return field?.type === "number" ? field : undefined;
}

/** A line of the passport: the inventory's row of a calculation, with what it was computed from
 *  where known (a snapshot's lines carry it, D20; the live report adds it). */
export type PassportLine = InventoryCalculation & Partial<Pick<SnapshotLine, "inputs" | "results">>;

/** 8.1: the Order 371 formula or the IPCC equation a line follows, as its type's module words it. */
const formulaOf = (line: PassportLine): string => inventorySourceOf(line.type)?.passportFormula(line) ?? line.type_title;

const percentText = (value: number) => String(value).replace(".", ",");
/** D38: a gas mixture as the passport names it, never «100 % CH4». */
const mixtureText = (w_ch4: number, w_co2: number) => `смесь (CH4 ${percentText(w_ch4)} % об., CO2 ${percentText(w_co2)} % об.)`;
const inputOf = (line: PassportLine, name: string) => (typeof line.inputs?.[name] === "number" ? (line.inputs[name] as number) : 0);

/** The fuel a line burns, by kind, with its own unit (the dictionary entry names both:
 *  «Топливо дизельное, т»); for drained gas of a stated composition, the mixture and its CH4
 *  content (D38); undefined for a line that burns none. */
function fuelOf(line: PassportLine): { kind: string; unit: string; w_ch4?: number } | undefined {
  const ef = line.coefficients?.ef;
  const named = ef?.source === "dictionary" && ef.item_name ? ef.item_name : undefined;
  if (line.type === "open_mining_co2") return { kind: named ?? "Топливо техники (коэффициент организации)", unit: "т" };
  if (line.type !== "disposal_co2_stat_sources") return undefined;
  const w_ch4 = inputOf(line, "w_ch4");
  if (w_ch4 > 0) return { kind: `Каптированный шахтный газ, ${mixtureText(w_ch4, inputOf(line, "w_co2"))}`, unit: "тыс. м³", w_ch4 };
  const unit = fuelUnitOf(named);
  if (named && unit) return { kind: named.slice(0, named.lastIndexOf(",")).replace(/\s*\(через [^)]*\)/, ""), unit };
  // The company's own coefficients: the unit is the one its conversion factor is per.
  const per = line.coefficients?.k?.unit.split("/")[1];
  return { kind: "Топливо (коэффициенты организации)", unit: per && per !== "ед." ? per : "ед. топлива" };
}

/** D25, 8.1: «Источник выбросов «Вентиляционный ствол № 1» (вентиляционный ствол (вентилятор));
 *  средство измерений: …; периодичность измерений: …». */
export function pointText(point: EmissionPoint): string {
  return (
    `Источник выбросов «${point.name}» (${emissionPointKindInText(point.kind)}); ` +
    `средство измерений: ${point.instrument || "не указано"}; периодичность измерений: ${point.frequency || "не указана"}`
  );
}

function sourceOf(calculation: PassportLine, point: EmissionPoint | undefined): PassportSource {
  const quantity = (name: string, value: number, unit: string): Quantity => {
    const field = fieldOf(calculation.type, name);
    return { label: field?.label ?? name, value, unit: unit || field?.unit || "", decimals: field?.decimals ?? 4 };
  };
  const uses = Object.entries(calculation.coefficients ?? {});
  const fuel = fuelOf(calculation);
  const activity = uses
    .filter(([name]) => name === ACTIVITY_INPUT)
    .map(([name, use]) => {
      // D29: a measured volume is Tier 3; the other activity data (coal, fuel) carry no tier of
      // their own (a tier is the method's, by its factor), which the column says.
      const tier = tierOf(calculation.type, name, use.source);
      const q = { ...quantity(name, use.value, use.unit), tier: tier === 3 ? TIER_LABELS[tier] : ACTIVITY_WITHOUT_TIER };
      // 8.1: fuel by kind in its own unit, not «тыс. м³ или т».
      if (fuel) return { ...q, label: `${q.label}: ${fuel.kind}`, unit: fuel.unit };
      // D26: a measured volume is what was measured, whatever became of it (a gross figure's gas
      // was partly flared or used): never «выброшенной без сжигания».
      return calculation.type === "underground" ? { ...q, label: MEASURED_VOLUME_LABEL } : q;
    });
  // D26: a source whose gas was partly destroyed prints gross, the netting and net.
  const netting = calculation.counted ? (calculation.netting ?? []) : [];
  const net = calculation.gases.map((g) => {
    const off = netting.find((n) => n.gas === g.gas);
    return off ? { gas: g.gas, t: round(g.t - off.t), t_co2e: round(g.t_co2e - off.t_co2e) } : g;
  });
  const coefficients = uses
    .filter(([name]) => !NOT_SHOWN.has(name))
    .map(([name, use]) => ({
      ...quantity(name, use.value, use.unit),
      source: describeCoefficient(use) ?? "",
      tier: TIER_LABELS[tierOf(calculation.type, name, use.source)],
    }));
  return {
    name: calculation.name,
    project: calculation.project.name,
    ipcc: ipccTitle(calculation.ipcc_code),
    // D16, D22: the calculation's own method (Table 3.1 defaults) and its notes.
    method: [
      calculation.method ?? METHOD_LABELS[inventorySourceOf(calculation.type)?.method ?? "coefficients"],
      ...(calculation.notes ?? []),
    ].join("; "),
    formula: formulaOf(calculation),
    // D42: the days it covers, not the year by default.
    period: (calculation.covered ?? (calculation.period ? [calculation.period] : [])).map(periodText).join(", "),
    point: point ? pointText(point) : "",
    activity,
    coefficients,
    gases: calculation.gases,
    netting,
    net,
    t_co2e: round(net.reduce((sum, g) => sum + g.t_co2e, 0)),
  };
}

const round = (value: number) => Math.round(value * 1e9) / 1e9;

const volumeOf = (line: PassportLine) => line.coefficients?.volume?.value ?? 0;
const sumOf = (lines: PassportLine[]) => lines.reduce((sum, line) => sum + volumeOf(line), 0);

/** 8.1: a facility's activity data from its counted lines (the coal mined: domain/inventory/coal.ts). */
function activityOf(facility: string, lines: PassportLine[], coalProcessedT: number | undefined): PassportActivity[] {
  const rows: PassportActivity[] = [];
  const coal = coalMinedOf(lines);
  const of = (type: string) => lines.filter((l) => l.type === type);
  const mined = (label: string, value: number | undefined) => {
    if (value !== undefined) rows.push({ facility, label, value, unit: "т", decimals: 2 });
  };
  mined("Добыча угля подземным способом", coal.underground_t);
  mined("Добыча угля открытым способом", coal.open_pit_t);
  // Entered on the inventory (no calculation carries it): domain/inventory/activity.ts.
  if (coalProcessedT !== undefined) rows.push({ facility, label: "Переработка угля", value: coalProcessedT, unit: "т", decimals: 2 });
  // D38: a mixture's volume, then the CH4 in it: «в т. ч. CH4».
  const mixture = (label: string, volume: number, ch4: number): PassportActivity[] => [
    { facility, label, value: volume, unit: "тыс. м³", decimals: 4 },
    { facility, label: "в т. ч. CH4", value: ch4, unit: "тыс. м³", decimals: 4 },
  ];
  const fuels = new Map<string, { label: string; unit: string; value: number; ch4?: number }>();
  for (const line of lines) {
    const fuel = fuelOf(line);
    if (!fuel) continue;
    const key = `${fuel.kind}|${fuel.unit}`;
    const row = fuels.get(key) ?? { label: `Топливо: ${fuel.kind}`, unit: fuel.unit, value: 0 };
    row.value += volumeOf(line);
    if (fuel.w_ch4 !== undefined) row.ch4 = (row.ch4 ?? 0) + (volumeOf(line) * fuel.w_ch4) / 100;
    fuels.set(key, row);
  }
  for (const row of [...fuels.values()].sort((a, b) => a.label.localeCompare(b.label, "ru"))) {
    if (row.ch4 !== undefined) rows.push(...mixture(row.label, row.value, row.ch4));
    else rows.push({ facility, label: row.label, value: row.value, unit: row.unit, decimals: 4 });
  }
  // D26: the measured volume, whatever became of it (the balance says what was flared or used).
  const measured = of("underground");
  if (measured.length > 0) {
    rows.push(
      ...mixture("Газовая смесь из систем дегазации и вентиляции (измеренный объем)", sumOf(measured), sumBy(measured, measuredCh4)),
    );
  }
  // A flare's gas by its composition.
  const flared = new Map<string, PassportLine[]>();
  for (const line of of("torch_composition")) {
    const key = mixtureText(inputOf(line, "w_ch4"), inputOf(line, "w_co2"));
    flared.set(key, [...(flared.get(key) ?? []), line]);
  }
  for (const [text, own] of flared) {
    rows.push(
      ...mixture(
        `Газовая смесь, сожженная на факельных установках: ${text}`,
        sumOf(own),
        sumBy(own, (l) => (volumeOf(l) * inputOf(l, "w_ch4")) / 100),
      ),
    );
  }
  return rows;
}

const sumBy = (lines: PassportLine[], value: (line: PassportLine) => number) => lines.reduce((sum, line) => sum + value(line), 0);

/** Thousand m³ of CH4 a measured release holds: by its periods' contents, else its own (D14). */
function measuredCh4(line: PassportLine): number {
  const periods = Array.isArray(line.results?.periods) ? (line.results.periods as Array<Record<string, unknown>>) : [];
  if (periods.length > 0) return periods.reduce((sum, p) => sum + ((numberOrNull(p.volume) ?? 0) * (numberOrNull(p.w_ch4) ?? 0)) / 100, 0);
  return (volumeOf(line) * (line.coefficients?.ef_ch4?.value ?? 0)) / 100;
}

/** The facilities with lines, then those whose only activity datum is the coal they processed. */
function activityFacilities(inventory: PassportData["inventory"], facilities: Facility[]): Array<{ id: string | null; name: string }> {
  const listed = new Set(inventory.facilities.map((f) => f.id));
  const processing = (inventory.coal_processed ?? [])
    .filter((row) => !listed.has(row.facility))
    .map((row) => ({ id: row.facility, name: facilities.find((f) => f.id === row.facility)?.name ?? NO_FACILITY_NAME }));
  return [...inventory.facilities, ...processing];
}

const numberOrNull = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
/** A period's end: a plain date, printed as written (no zone applies). */
const dayText = (value: unknown) =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? dateText(value, DEFAULT_TIME_ZONE) : String(value ?? "");

/** D25: how a line was measured: the calculation's own notes, else its point's instrument and frequency. */
function measurementNotesOf(line: PassportLine, point: EmissionPoint | undefined): { frequency: string; instruments: string } {
  const fromPoint = { measurement_frequency: point?.frequency, measurement_instruments: point?.instrument };
  const note = (name: keyof typeof MEASUREMENT_NOTES) => {
    const value = line.inputs?.[name];
    return typeof value === "string" && value ? value : fromPoint[name as keyof typeof fromPoint] || "не указаны";
  };
  return { frequency: note("measurement_frequency"), instruments: note("measurement_instruments") };
}

/** 8.1: a measured source's periods (D14) — or the one period it covers — with how it was measured. */
function measurementOf(facility: string, line: PassportLine, point: EmissionPoint | undefined): PassportMeasurement {
  const stored = Array.isArray(line.results?.periods) ? (line.results.periods as Array<Record<string, unknown>>) : [];
  const contents = (name: string) => line.coefficients?.[name]?.value ?? 0;
  const periods =
    stored.length > 0
      ? stored.map((p) => ({
          period: `${dayText(p.from)}–${dayText(p.to)}`,
          flow: numberOrNull(p.flow_m3_min),
          hours: numberOrNull(p.hours),
          w_ch4: numberOrNull(p.w_ch4) ?? 0,
          w_co2: numberOrNull(p.w_co2) ?? 0,
          volume: numberOrNull(p.volume) ?? 0,
        }))
      : [
          {
            period: line.period ? periodText(line.period) : "",
            flow: null,
            hours: null,
            w_ch4: contents("ef_ch4"),
            w_co2: contents("ef_co2"),
            volume: volumeOf(line),
          },
        ];
  return {
    facility,
    source: point ? `${line.name} — источник «${point.name}»` : line.name,
    project: line.project.name,
    ...measurementNotesOf(line, point),
    periods,
  };
}

/** D38: a flare, boiler or engine that burnt drained gas, as the passport describes it; undefined
 *  for any other line. */
function destructionOf(facility: string, line: PassportLine, point: EmissionPoint | undefined): PassportDestruction | undefined {
  const burnt = methaneDestroyedBy({ ...line, inputs: line.inputs ?? {}, results: line.results ?? {} });
  if (!burnt) return undefined;
  const pure = line.type !== "torch_composition" && !(inputOf(line, "w_ch4") > 0);
  const volume = volumeOf(line) * (line.type === "disposal_co2_stat_sources" && line.inputs?.k !== undefined ? inputOf(line, "k") : 1);
  const w_ch4 = pure ? 100 : inputOf(line, "w_ch4");
  const factor =
    line.type === "torch_composition"
      ? { label: "Коэффициент недожога (CF)", value: inputOf(line, "cf") }
      : line.type === "disposal_co2_stat_sources"
        ? { label: "Коэффициент окисления", value: line.inputs?.of === undefined ? 1 : inputOf(line, "of") }
        : { label: "Эффективность сжигания (МГЭИК)", value: FLARE_EFFICIENCY };
  const notes = measurementNotesOf(line, point);
  return {
    facility,
    source: point ? `${line.name} — источник «${point.name}»` : line.name,
    project: line.project.name,
    formula: formulaOf(line),
    period: (line.covered ?? (line.period ? [line.period] : [])).map(periodText).join(", "),
    ...notes,
    volume,
    w_ch4,
    w_co2: pure ? 0 : inputOf(line, "w_co2"),
    ch4_volume: (volume * w_ch4) / 100,
    note: pure ? PURE_METHANE_MARK : "",
    factor,
  };
}

/** D17, D26, D38: the balance rows, t CH4, each saying what it is: the methane liberated by mining
 *  (ventilation and drainage, whatever basis each calculation used) is what was sent to flares and
 *  use plus what was vented unburnt; the atmosphere got the vented gas, the flares' unburnt slip and
 *  post-mining gas. «Уничтожено» is the CH4 burnt and nothing else. */
export function balanceRowsOf(row: Inventory["balance"][number]): Array<{ label: string; t: number }> {
  // A version approved before post-mining was kept apart has the gross figures only.
  const postMining = row.post_mining_t ?? 0;
  const sent = row.flared_t + row.used_t;
  const slip = row.slip_t ?? 0;
  const mining = row.vented_t + sent;
  return [
    { label: "Выделилось метана, всего (при добыче и после добычи)", t: mining + postMining },
    { label: "при добыче, валовое (вентиляция и дегазация, включая направленное на сжигание)", t: mining },
    { label: "из него направлено на сжигание (факелы, котельные, ГПУ)", t: sent },
    { label: "в том числе на факелы", t: row.flared_t },
    { label: "в том числе в котельные и ГПУ", t: row.used_t },
    { label: "уничтожено (метан сожжен)", t: row.destroyed_t },
    { label: "не сгорело на факелах (строка 1.B.1.a.i.4)", t: slip },
    { label: "из него выброшено без сжигания (вентиляция и дегазация)", t: row.vented_t },
    { label: "после добычи (строка 1.B.1.a.i.2)", t: postMining },
    { label: "Выброшено в атмосферу, всего (без сжигания, не сгорело на факелах, после добычи)", t: row.emitted_t },
    { label: "Вычтено из строки 1.B.1.a.i.1 (направленное на сжигание из валовых расчетов)", t: row.netted_t },
    // D28: the CO2 the burnt gas carried is reported with the combustion lines, once.
    ...((row.co2_netted_t ?? 0) > 0
      ? [{ label: "CO2 каптированного газа, т CO2 (вычтен из строки 1.B.1.a.i.1, учтен при сжигании)", t: row.co2_netted_t ?? 0 }]
      : []),
  ];
}

function balanceOf(row: Inventory["balance"][number]): PassportBalance {
  return { facility: row.facility_name, rows: balanceRowsOf(row) };
}

/** 8.1: per gas of 2979-р in t and t CO2-eq; the gases no calculation emits say so. */
export const OTHER_GASES = [
  "Закись азота (N2O)",
  "Гидрофторуглероды (ГФУ)",
  "Перфторуглероды (ПФУ)",
  "Гексафторид серы (SF6)",
  "Трифторид азота (NF3)",
] as const;
const GAS_NAMES: Record<Gas, string> = { CO2: "Диоксид углерода (CO2)", CH4: "Метан (CH4)" };

/** The types of the combustion categories (stationary combustion, flaring, transport: all but the
 *  fugitive 3) burn fuel or gas: they give off N2O too, which their methods do not compute. */
const burnsFuelOrGas = (type: string) => (inventorySourceOf(type)?.category ?? 3) !== 3;
/** 10.1: a gas the method does not compute is «не рассчитывается» with why, never «не выбрасывается». */
export const N2O_NOT_COMPUTED = "не рассчитывается: методики сжигания топлива и газа (Приказ № 371) дают CO2 и CH4";

function gasesOf(categories: Inventory["categories"], lines: readonly PassportLine[]): PassportGas[] {
  const own = (["CO2", "CH4"] as const).map((gas) => {
    const rows = categories.filter((row) => row.gas === gas);
    const sum = (key: "t" | "t_co2e") => rows.reduce((total, row) => total + row[key], 0);
    return { gas: GAS_NAMES[gas], t: sum("t"), t_co2e: sum("t_co2e"), note: "" };
  });
  const burns = lines.some((line) => burnsFuelOrGas(line.type));
  return [
    ...own,
    ...OTHER_GASES.map((gas) => ({
      gas,
      t: null,
      t_co2e: null,
      note: burns && gas === OTHER_GASES[0] ? N2O_NOT_COMPUTED : "не выбрасывается",
    })),
  ];
}

function facilityDetails(facility: Facility | undefined): string {
  if (!facility) return "";
  return [
    FACILITY_KINDS[facility.kind],
    facility.licence_number && `лицензия ${facility.licence_number}`,
    facility.address && `адрес: ${facility.address}`,
  ]
    .filter(Boolean)
    .join("; ");
}

/** Per facility (as the inventory lists them) and Order 371 category, the counted calculations. */
function facilitiesOf(
  inventory: { calculations: PassportLine[]; facilities: Inventory["facilities"] },
  facilities: Facility[],
  pointOf: (line: PassportLine) => EmissionPoint | undefined,
): PassportFacility[] {
  const counted = inventory.calculations.filter((c) => c.counted);
  return inventory.facilities.map((row) => {
    const own = counted.filter((c) => c.facility === row.id);
    const categories = [...new Set(own.map((c) => c.category))].sort((a, b) => a - b);
    return {
      name: row.name,
      details: facilityDetails(facilities.find((f) => f.id === row.id)),
      t_co2e: row.t_co2e,
      categories: categories.map((category) => {
        const sources = own
          .filter((c) => c.category === category)
          .sort((a, b) => a.ipcc_code.localeCompare(b.ipcc_code) || a.name.localeCompare(b.name, "ru"))
          .map((line) => sourceOf(line, pointOf(line)));
        // D26: the net figures, so the subtotals add up to the facility's total.
        const t_co2e = round(sources.reduce((sum, s) => sum + s.t_co2e, 0));
        return { title: categoryTitle(category), sources, t_co2e };
      }),
    };
  });
}

/** D21: the company's verdict, on a facility's report too; provisional while the year is not whole. */
function companyThreshold(inventory: Pick<Inventory, "threshold" | "year" | "checks">): string {
  return thresholdVerdict(inventory.threshold, inventory.year, (value) => formatNumber(value, 0), inventory.checks);
}

export interface PassportData {
  company: Company;
  facilities: Facility[];
  /** D25: the company's emission points, to print each line's with its instrument and frequency. */
  points?: EmissionPoint[];
  /** The live inventory, or an approved version's snapshot of it (D20). */
  inventory: Omit<Inventory, "review" | "years" | "calculations"> & {
    calculations: PassportLine[];
    coal_processed?: InventoryReview["coal_processed"];
  };
  review: InventoryReview;
  users: User[];
  now: Date;
  /** Set when the passport prints an approved version: `approval` is its place in the year's chain
   *  of approvals (1: the first version approved), which tells its own approval step (D39). */
  snapshot?: {
    version: number;
    sha256: string;
    /** the SHA-256 fingerprint of the platform's key that signed the hash. */
    key?: string;
    approved_at: string;
    approved_by: string;
    approval: number;
    changes: SnapshotChanges | null;
  };
}

const tonnes = (value: number) => `${formatNumber(value, EMISSION_DECIMALS)} ${T_CO2E}`;
/** One side of a change: what the line adds, or for one the sums did not count (an alternative,
 *  D18) «не учтен» with its own value — never «0,00». */
const side = (counted: number | undefined, uncounted: number | undefined) =>
  uncounted !== undefined ? `не учтен (${tonnes(uncounted)})` : tonnes(counted ?? 0);

/** D20: the lines added, removed and changed against the version before, with before → after. */
function changesOf(changes: SnapshotChanges, facilities: Facility[]): { title: string; lines: string[] } {
  const named = (line: { name: string; project: string }) => `«${line.name}» (проект «${line.project}»)`;
  const processed = (t: number | null) => (t === null ? "не указано" : `${formatNumber(t, 2)} т`);
  const facilityName = (id: string) => facilities.find((f) => f.id === id)?.name ?? NO_FACILITY_NAME;
  const lines = [
    ...changes.added.map((line) => `Добавлен расчет ${named(line)}: ${side(line.after, line.uncounted_after)}`),
    ...changes.removed.map((line) => `Исключен расчет ${named(line)}: было ${side(line.before, line.uncounted_before)}`),
    ...changes.changed.map(
      (line) => `Изменен расчет ${named(line)}: ${side(line.before, line.uncounted_before)} → ${side(line.after, line.uncounted_after)}`,
    ),
    ...(changes.coal_processed ?? []).map(
      (row) => `Изменена переработка угля, «${facilityName(row.facility)}»: ${processed(row.before)} → ${processed(row.after)}`,
    ),
  ];
  if (lines.length === 0) lines.push("Расчеты не изменились");
  lines.push(`Итого: ${tonnes(changes.total.before)} → ${tonnes(changes.total.after)}`);
  return { title: `Изменения относительно версии ${changes.against}`, lines };
}

/** the row of the passport that prints the signing key's fingerprint (verify.py reads it). */
export const SIGNING_KEY_LABEL = "Отпечаток ключа подписи (SHA-256)";

/** The note under a table of rows rounded apart from its total, when they add up to
 *  other than it as printed: «1 018 635,41» of rows under «Итого 1 018 635,42». */
export function roundingNote(parts: readonly number[], total: number): string | undefined {
  const scale = 10 ** EMISSION_DECIMALS;
  const rounded = parts.reduce((sum, part) => sum + Math.round(part * scale), 0);
  if (rounded === Math.round(total * scale)) return undefined;
  return (
    `Строки округлены до ${formatNumber(1 / scale, EMISSION_DECIMALS)} отдельно от итога: их сумма ` +
    `${formatNumber(rounded / scale, EMISSION_DECIMALS)}, итог по неокругленным значениям ${formatNumber(total, EMISSION_DECIMALS)}`
  );
}

function roundingNotes(inventory: PassportData["inventory"], counted: PassportData["inventory"]["calculations"]): Passport["rounding"] {
  const notes: Passport["rounding"] = {};
  const gases = gasesOf(inventory.categories, counted).flatMap((g) => (g.t_co2e === null ? [] : [g.t_co2e]));
  const byGas = roundingNote(gases, inventory.total_t_co2e);
  if (byGas) notes.gases = byGas;
  const byLine = roundingNote(
    inventory.categories.map((row) => row.t_co2e),
    inventory.total_t_co2e,
  );
  if (byLine) notes.totals = byLine;
  const byFacility = roundingNote(
    inventory.facilities.map((f) => f.t_co2e),
    inventory.total_t_co2e,
  );
  if (byFacility) notes.facilities = byFacility;
  return notes;
}

export function buildPassport({ company, facilities, points = [], inventory, review, users, now, snapshot }: PassportData): Passport {
  const zone = zoneOf(company);
  const pointOf = (line: PassportLine) => (line.point ? points.find((p) => p.id === line.point) : undefined);
  // D39: a version's documents are dated by its approval, never by the clock.
  const issued = snapshot ? new Date(snapshot.approved_at) : now;
  const missing = "не указан";
  const counted = inventory.calculations.filter((c) => c.counted);
  const facilityRows = inventory.facilities;
  const scope = inventory.facility
    ? (facilities.find((f) => f.id === inventory.facility)?.name ?? NO_FACILITY_NAME)
    : "все площадки организации";
  return {
    title: `Паспорт отчета о выбросах парниковых газов за ${inventory.year} год`,
    requisites: [
      ["Наименование организации", company.name],
      ["ОГРН", company.ogrn || missing],
      ["ИНН", company.inn || missing],
      ["КПП", company.kpp || missing],
      ["ОКВЭД", company.okved || missing],
      ["Адрес", company.postal_address || missing],
    ],
    period: `${dateText(`${inventory.year}-01-01`, zone)}–${dateText(`${inventory.year}-12-31`, zone)}`,
    responsible: [
      ["ФИО", company.responsible_name || missing],
      ["Должность", company.responsible_position || missing],
      ["Телефон", company.responsible_phone || missing],
      ["E-mail", company.responsible_email || missing],
    ],
    // The version printed is the one signed: its approval (D20); a year not approved is a draft.
    signing: snapshot
      ? `${dateText(snapshot.approved_at, zone)} (утверждение версии ${snapshot.version})`
      : "не подписан: год не утвержден, паспорт — проект",
    year: inventory.year,
    status: statusOf(review, snapshot),
    approvals: approvalsOf(review, users, snapshot, zone),
    ...(snapshot ? { version: { number: snapshot.version, sha256: snapshot.sha256, ...(snapshot.key ? { key: snapshot.key } : {}) } } : {}),
    ...(snapshot?.changes ? { changes: changesOf(snapshot.changes, facilities) } : {}),
    scope,
    gwp: `${inventory.gwp.name}: ПГП CH4 = ${inventory.gwp.gwp_ch4}${inventory.gwp.source ? ` (${inventory.gwp.source})` : ""}`,
    facilities: facilitiesOf(inventory, facilities, pointOf),
    totals: inventory.categories.map((row) => ({
      category: categoryTitle(row.category),
      ipcc: ipccTitle(row.ipcc_code),
      gas: row.gas,
      t: row.t,
      t_co2e: row.t_co2e,
    })),
    gases: gasesOf(inventory.categories, counted),
    activity: activityFacilities(inventory, facilities).flatMap((row) =>
      activityOf(
        row.name,
        counted.filter((c) => c.facility === row.id),
        inventory.coal_processed?.find((p) => p.facility === row.id)?.t,
      ),
    ),
    // D38: the measured releases (formula 3.1) apart from the devices that burnt drained gas.
    measurements: facilityRows.flatMap((row) =>
      counted.filter((c) => c.facility === row.id && c.type === "underground").map((line) => measurementOf(row.name, line, pointOf(line))),
    ),
    destruction: facilityRows.flatMap((row) =>
      counted.filter((c) => c.facility === row.id).flatMap((line) => destructionOf(row.name, line, pointOf(line)) ?? []),
    ),
    // A facility's report shows its own balance only.
    balance: inventory.balance.filter((b) => !inventory.facility || b.facility === inventory.facility).map(balanceOf),
    total_t_co2e: inventory.total_t_co2e,
    rounding: roundingNotes(inventory, counted),
    threshold: companyThreshold(inventory),
    measured_vs_estimated: agreementLine(
      compareMines(uncertaintyCore(), {
        year: inventory.year,
        lines: inventory.calculations as unknown as ComparedLine[],
        facilities: facilities.filter((f) => !inventory.facility || f.id === inventory.facility),
        points,
      }),
    ),
    checks: inventory.checks.map((check) => `${CHECK_LEVELS[check.level]}: ${check.message}`),
    footnote: PASSPORT_FOOTNOTE,
    generated: dateText(issued, zone),
    issued,
    zone,
  };
}
