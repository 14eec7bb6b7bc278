// The 296-FZ report passport (docs/methodology.md, Inventory and the report): the year's inventory as a company types it into
// the registry's form (Decree 707), as an xlsx workbook or a PDF. This module gathers what the
// document says, once, as numbers and texts; inventory-passport-xlsx.ts and
// inventory-passport-pdf.ts only lay it out, inventory-report.ts puts them together.
import { NO_FACILITY_NAME, type Inventory, type InventoryCalculation } from "../domain/inventory";
import type { Company, Facility, InventoryReview, User } from "../ports";
import { REGISTRY, isCalculationType, type NumberField } from "@core/registry";
import {
  FACILITY_KINDS,
  IPCC_CODES,
  METHOD_LABELS,
  ORDER_371_CATEGORIES,
  STATUS_LABELS,
  TRANSITIONS,
  inventorySourceOf,
  thresholdVerdict,
  type Gas,
  type Order371Category,
  type ReviewAction,
} from "@core/inventory";
import type { SnapshotChanges } from "../domain/inventory-versions";
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
}

export interface PassportSource {
  name: string;
  project: string;
  ipcc: string;
  method: string;
  activity: Quantity[];
  coefficients: PassportCoefficient[];
  gases: Array<{ gas: Gas; t: number; t_co2e: number }>;
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

export interface Passport {
  title: string;
  /** Label and value: name, ОГРН, ИНН, КПП, ОКВЭД, address. */
  requisites: Array<[string, string]>;
  year: number;
  /** The year's review status (domain/inventory-review.ts), and its approval and transitions. */
  status: string;
  approvals: string[];
  /** D20: the approved version the passport prints, with its hash; none for a year not frozen. */
  version?: { number: number; sha256: string };
  /** What changed against the version before (title, then one line per change). */
  changes?: { title: string; lines: string[] };
  scope: string;
  gwp: string;
  facilities: PassportFacility[];
  /** By Order 371 category, IPCC code and gas, as the inventory sums them. */
  totals: Array<{ category: string; ipcc: string; gas: Gas; t: number; t_co2e: number }>;
  total_t_co2e: number;
  threshold: string;
  checks: string[];
  footnote: string;
  generated: string;
}

/** Every inventory type records its activity datum (coal mined, fuel burnt, gas released or
 *  flared) in its `volume` input; the other numbers it used are its coefficients. */
const ACTIVITY_INPUT = "volume";
/** The stored GWP is not the passport's: the inventory converts CH4 with the year's set. */
const NOT_SHOWN = new Set([ACTIVITY_INPUT, "gwp_ch4"]);

const T_CO2E = "т CO2-экв.";
export const EMISSION_DECIMALS = 2;
const CHECK_LEVELS = { error: "Ошибка", warning: "Предупреждение", info: "Сведения" } as const;

export const PASSPORT_FOOTNOTE =
  "Паспорт повторяет сведения, которые организация вносит в форму отчета о выбросах парниковых газов " +
  "в реестре (постановление Правительства РФ № 707). Это не формат файла для загрузки в реестр.";

const moscowDate = (iso: string) => new Intl.DateTimeFormat("ru-RU", { timeZone: "Europe/Moscow" }).format(new Date(iso));
const plainDate = (date: string) => date.split("-").reverse().join(".");

/** Who approved and when, the notice of refusal, and every transition of the year's review. */
function approvalsOf(review: InventoryReview, users: User[]): string[] {
  // The review records who acted by e-mail.
  const nameOf = (email: string) => {
    const user = users.find((u) => u.email === email);
    return (user && `${user.first_name} ${user.last_name}`.trim()) || email;
  };
  const lines: string[] = [];
  if (review.approved_at) {
    lines.push(`Утверждена ${moscowDate(review.approved_at)}${review.approved_by ? `, ${nameOf(review.approved_by)}` : ""}`);
  }
  if (review.notice_date) {
    lines.push(
      `Уведомление о возврате отчета от ${plainDate(review.notice_date)}` +
        (review.rework_deadline ? `, срок доработки до ${plainDate(review.rework_deadline)}` : ""),
    );
  }
  for (const step of review.history) {
    const action = Object.hasOwn(TRANSITIONS, step.action) ? TRANSITIONS[step.action as ReviewAction].label : STATUS_LABELS[step.to];
    lines.push(`${moscowDate(step.at)}: ${action} (${nameOf(step.by)})${step.reason ? `: ${step.reason}` : ""}`);
  }
  return lines;
}

const categoryTitle = (category: Order371Category) => `Категория ${category}. ${ORDER_371_CATEGORIES[category]}`;
const ipccTitle = (code: string) => `${code} ${IPCC_CODES[code] ?? ""}`.trim();

function fieldOf(type: string, name: string): NumberField | undefined {
  if (!isCalculationType(type)) return undefined;
  const def = REGISTRY[type];
  const field = [...def.inputs, ...def.settings].find((f) => f.name === name);
  return field?.type === "number" ? field : undefined;
}

function sourceOf(calculation: InventoryCalculation): PassportSource {
  const quantity = (name: string, value: number, unit: string): Quantity => {
    const field = fieldOf(calculation.type, name);
    return { label: field?.label ?? name, value, unit: unit || field?.unit || "", decimals: field?.decimals ?? 4 };
  };
  const uses = Object.entries(calculation.coefficients ?? {});
  const activity = uses.filter(([name]) => name === ACTIVITY_INPUT).map(([name, use]) => quantity(name, use.value, use.unit));
  const coefficients = uses
    .filter(([name]) => !NOT_SHOWN.has(name))
    .map(([name, use]) => ({ ...quantity(name, use.value, use.unit), source: describeCoefficient(use) ?? "" }));
  const method = inventorySourceOf(calculation.type)?.method;
  return {
    name: calculation.name,
    project: calculation.project.name,
    ipcc: ipccTitle(calculation.ipcc_code),
    // D16, D22: the calculation's own method (Table 3.1 defaults) and its notes.
    method: [calculation.method ?? (method ? METHOD_LABELS[method] : calculation.type_title), ...(calculation.notes ?? [])].join("; "),
    activity,
    coefficients,
    gases: calculation.gases,
  };
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
function facilitiesOf(inventory: Pick<Inventory, "calculations" | "facilities">, facilities: Facility[]): PassportFacility[] {
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
          .map(sourceOf);
        const t_co2e = sources.reduce((sum, s) => sum + s.gases.reduce((g, gas) => g + gas.t_co2e, 0), 0);
        return { title: categoryTitle(category), sources, t_co2e };
      }),
    };
  });
}

/** D21: the company's verdict, on a facility's report too. */
function companyThreshold(inventory: Pick<Inventory, "threshold">): string {
  return thresholdVerdict(inventory.threshold, (value) => formatNumber(value, 0));
}

export interface PassportData {
  company: Company;
  facilities: Facility[];
  /** The live inventory, or an approved version's snapshot of it (D20). */
  inventory: Omit<Inventory, "review" | "years">;
  review: InventoryReview;
  users: User[];
  now: Date;
  /** Set when the passport prints an approved version. */
  snapshot?: { version: number; sha256: string; changes: SnapshotChanges | null };
}

const tonnes = (value: number) => `${formatNumber(value, EMISSION_DECIMALS)} ${T_CO2E}`;

/** D20: the lines added, removed and changed against the version before, with before → after. */
function changesOf(changes: SnapshotChanges): { title: string; lines: string[] } {
  const named = (line: { name: string; project: string }) => `«${line.name}» (проект «${line.project}»)`;
  const lines = [
    ...changes.added.map((line) => `Добавлен расчет ${named(line)}: ${tonnes(line.after ?? 0)}`),
    ...changes.removed.map((line) => `Исключен расчет ${named(line)}: было ${tonnes(line.before ?? 0)}`),
    ...changes.changed.map((line) => `Изменен расчет ${named(line)}: ${tonnes(line.before ?? 0)} → ${tonnes(line.after ?? 0)}`),
  ];
  if (lines.length === 0) lines.push("Расчеты не изменились");
  lines.push(`Итого: ${tonnes(changes.total.before)} → ${tonnes(changes.total.after)}`);
  return { title: `Изменения относительно версии ${changes.against}`, lines };
}

export function buildPassport({ company, facilities, inventory, review, users, now, snapshot }: PassportData): Passport {
  const missing = "не указан";
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
    year: inventory.year,
    status: STATUS_LABELS[review.status],
    approvals: approvalsOf(review, users),
    ...(snapshot ? { version: { number: snapshot.version, sha256: snapshot.sha256 } } : {}),
    ...(snapshot?.changes ? { changes: changesOf(snapshot.changes) } : {}),
    scope,
    gwp: `${inventory.gwp.name}: ПГП CH4 = ${inventory.gwp.gwp_ch4}${inventory.gwp.source ? ` (${inventory.gwp.source})` : ""}`,
    facilities: facilitiesOf(inventory, facilities),
    totals: inventory.categories.map((row) => ({
      category: categoryTitle(row.category),
      ipcc: ipccTitle(row.ipcc_code),
      gas: row.gas,
      t: row.t,
      t_co2e: row.t_co2e,
    })),
    total_t_co2e: inventory.total_t_co2e,
    threshold: companyThreshold(inventory),
    checks: inventory.checks.map((check) => `${CHECK_LEVELS[check.level]}: ${check.message}`),
    footnote: PASSPORT_FOOTNOTE,
    generated: moscowDate(now.toISOString()),
  };
}
