// Reference dictionaries (docs/api.md; defaults and their sources: docs/methodology.md, Sources): seeded from reference-data.json,
// read as their current versions, changed only by adding a version (effective date, who, why),
// so a calculation that recorded (item id, version) can always be traced to the value it used.
import type { Deps } from "../context";
import { Conflict, invalidAt, NotFound } from "../errors";
import { isoDateValue } from "../dates";
import type { DictionaryItemVersion } from "../../ports";
import type { DictionaryEntry } from "../../contract/views";
import type { SourcedValue } from "../../dictionaries/reference-data";
import {
  ACTIVITY_UNCERTAINTY,
  CORRECTIONS,
  REFERENCE_DATES,
  REFERENCE_DICTIONARIES,
  describeSource,
  verificationOf,
  type ReferenceDictionary,
  type ValueUncertainty,
  type Verification,
} from "../../dictionaries/reference-data";
import type { UncertaintyBody } from "../../contract/schemas/uncertainty";
import { REPORTING_YEAR_MIN } from "@core/gwp-in-force";
import { itemsOfYear } from "./gwp-years";

/** The reason of the version that dates a seeded item by its documents. */
export const SEED_DATE_REASON =
  "Дата начала действия — по документу, из которого взяты значения (или с первого поддерживаемого отчетного года), а не день загрузки справочника";

/** When a seeded item is in force: from its documents — the latest date among its values'
 *  references — or, where no reference states a date (IPCC, the platform's own tables), from the
 *  earliest reporting year the product supports, so a value is in force for every year it serves. */
export function seededEffectiveFrom(values: Record<string, Pick<SourcedValue, "ref">>): string {
  const dates = Object.values(values).map((v) => REFERENCE_DATES[v.ref] ?? `${REPORTING_YEAR_MIN}-01-01`);
  return dates.reduce((latest, date) => (date > latest ? date : latest), `${REPORTING_YEAR_MIN}-01-01`);
}

function definition(name: string): ReferenceDictionary {
  const found = REFERENCE_DICTIONARIES.find((d) => d.name === name);
  if (!found) throw new NotFound(`Справочник ${name} не найден`);
  return found;
}

/** The dictionary whose stored items serve `name` (get_underground serves the density table). */
function storageName(name: string): string {
  return definition(name).sameItemsAs ?? name;
}

export function toEntry(item: DictionaryItemVersion): DictionaryEntry {
  const verification: Record<string, Verification> = {};
  const entry: DictionaryEntry = {
    id: item.id,
    name: item.name,
    units: {},
    sources: {},
    uncertainty: {},
    version: item.version,
    effective_from: item.effective_from,
  };
  for (const [field, value] of Object.entries(item.values)) {
    entry[field] = value.value;
    entry.units[field] = value.unit;
    entry.sources[field] = describeSource(value);
    if (value.uncertainty) entry.uncertainty![field] = describedUncertainty(value.uncertainty);
    verification[field] = verificationOf(value.tag);
  }
  return { ...entry, verification };
}

export function describedUncertainty(u: ValueUncertainty): ValueUncertainty {
  return { lower_pct: u.lower_pct, upper_pct: u.upper_pct, distribution: u.distribution, source: describeSource({ ref: u.source }) };
}

export async function seedDictionaries(deps: Deps): Promise<number> {
  let written = 0;
  const now = deps.clock.now().toISOString();
  const missing: DictionaryItemVersion[] = [];
  const storedBefore = new Set<string>();
  for (const dictionary of REFERENCE_DICTIONARIES) {
    if (dictionary.sameItemsAs) continue;
    const existing = new Map((await deps.repos.dictionaries.list(dictionary.name)).map((i) => [i.id, i]));
    if (existing.size > 0) storedBefore.add(dictionary.name);
    for (const item of dictionary.items) {
      const stored = existing.get(item.id);
      if (stored) {
        written += await addMissingFields(deps, stored, item.values, now);
        continue;
      }
      missing.push({
        dictionary: dictionary.name,
        id: item.id,
        name: item.name,
        values: item.values,
        version: 1,
        effective_from: seededEffectiveFrom(item.values),
        changed_at: now,
        changed_by: "system",
        reason: "Значения по умолчанию методики расчета",
      });
    }
  }
  written += await deps.repos.dictionaries.seed(missing);
  return (
    written +
    (await applyCorrections(deps, now)) +
    (await redateSeeded(deps, now, storedBefore)) +
    (await renameSeeded(deps, now, storedBefore))
  );
}

/** The reason of the version that gives a seeded item the name the methodology's data now gives it. */
export const SEED_NAME_REASON = "Название записи — как в справочнике методики (организации названы по-русски: «МГЭИК»)";

/** An item an installation seeded under an earlier name («…, среднее значение IPCC») gets the
 *  seed's name as a new version, its values and dates as they are; an administrator's own version
 *  is left alone. */
async function renameSeeded(deps: Deps, now: string, storedBefore: ReadonlySet<string>): Promise<number> {
  let written = 0;
  // Items seeded just now have the seed's names.
  for (const [current, item] of await seededBySystem(deps, storedBefore)) {
    if (current.name === item.name) continue;
    written += await systemVersion(deps, now, current, { name: item.name, reason: SEED_NAME_REASON });
  }
  return written;
}

/** Items an installation seeded before an earlier release say «in force from» the day of seeding: their
 *  current version, while still the system's, gets a new version dated by its documents, with the
 *  reason (the values stay; an administrator's own version and a dated correction are left alone). */
async function redateSeeded(deps: Deps, now: string, storedBefore: ReadonlySet<string>): Promise<number> {
  let written = 0;
  const corrections = new Set(CORRECTIONS.map((c) => c.reason));
  // Items seeded just now are dated by their documents already.
  for (const [current, item] of await seededBySystem(deps, storedBefore)) {
    if (corrections.has(current.reason) || current.reason === SEED_DATE_REASON) continue;
    const dated = seededEffectiveFrom(item.values);
    if (current.effective_from <= dated) continue;
    written += await systemVersion(deps, now, current, { effective_from: dated, reason: SEED_DATE_REASON });
  }
  return written;
}

type SeededItem = (typeof REFERENCE_DICTIONARIES)[number]["items"][number];

/** The current versions, still the system's, of the items of the dictionaries stored before this
 *  start (`storedBefore`), each with the item the methodology's data now seeds. */
async function seededBySystem(deps: Deps, storedBefore: ReadonlySet<string>): Promise<[DictionaryItemVersion, SeededItem][]> {
  const found: [DictionaryItemVersion, SeededItem][] = [];
  for (const dictionary of REFERENCE_DICTIONARIES) {
    if (dictionary.sameItemsAs || !storedBefore.has(dictionary.name)) continue;
    const seeded = new Map<number, SeededItem>(dictionary.items.map((item) => [item.id, item]));
    for (const current of await deps.repos.dictionaries.list(dictionary.name)) {
      const item = seeded.get(current.id);
      if (item && current.changed_by === "system") found.push([current, item]);
    }
  }
  return found;
}

/** Writes the system's next version of `current` with `change`: 1, or 0 when another instance
 *  wrote that version first. */
async function systemVersion(
  deps: Deps,
  now: string,
  current: DictionaryItemVersion,
  change: Partial<DictionaryItemVersion> & { reason: string },
): Promise<number> {
  try {
    await deps.repos.dictionaries.putVersion({
      ...current,
      ...change,
      version: current.version + 1,
      changed_at: now,
      changed_by: "system",
    });
    return 1;
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    return 0;
  }
}

/** A field the methodology added to an item after an installation seeded it (get_gwp's reporting
 *  years, D12) is added as a new version with its default, so an administrator can edit it; the
 *  item's other values stay as they are. */
async function addMissingFields(
  deps: Deps,
  stored: DictionaryItemVersion,
  seeded: Record<string, SourcedValue>,
  now: string,
): Promise<number> {
  const missing = Object.keys(seeded).filter((field) => !(field in stored.values));
  if (missing.length === 0) return 0;
  return systemVersion(deps, now, stored, {
    values: { ...stored.values, ...Object.fromEntries(missing.map((field) => [field, seeded[field]])) },
    // The added values are in force from their documents too, not from the day they were added.
    effective_from: stored.changed_by === "system" ? seededEffectiveFrom(seeded) : stored.effective_from,
    reason: `Добавлены значения методики: ${missing.map((field) => `«${definition(stored.dictionary).labels[field] ?? field}»`).join(", ")}`,
  });
}

/** A seeded default found wrong (CORRECTIONS) becomes a new version with the corrected value where
 *  an installation still holds the wrong one; an administrator's own value is left alone. */
async function applyCorrections(deps: Deps, now: string): Promise<number> {
  let written = 0;
  for (const correction of CORRECTIONS) {
    const current = await deps.repos.dictionaries.get(correction.dictionary, correction.id);
    const stored = current?.values[correction.field];
    const fixed = definition(correction.dictionary).items.find((i) => i.id === correction.id)?.values[correction.field];
    if (!current || !stored || !fixed || stored.value !== correction.from || stored.tag === "E") continue;
    written += await systemVersion(deps, now, current, {
      values: { ...current.values, [correction.field]: { ...fixed, ...(stored.uncertainty ? { uncertainty: stored.uncertainty } : {}) } },
      effective_from: correction.effective_from,
      reason: correction.reason,
    });
  }
  return written;
}

export function listDictionaryNames() {
  return REFERENCE_DICTIONARIES.map((d) => ({ name: d.name, title: d.title }));
}

/** `deps` for one request that reads several dictionaries: the dictionaries' change counter is
 *  read once for all of them (the items themselves come from the process's cache). */
export function oneDictionaryCheck(deps: Deps): Deps {
  return { ...deps, repos: { ...deps.repos, dictionaries: deps.repos.dictionaries.forOneRequest() } };
}

/** Current versions of a dictionary's items, by id. */
export async function getDictionaryItems(deps: Deps, name: string): Promise<DictionaryItemVersion[]> {
  const items = await deps.repos.dictionaries.list(storageName(name));
  return items.sort((a, b) => a.id - b.id);
}

/** D41: a dictionary's items as they apply to reporting year `year` (each its latest version in
 *  effect from that year or before). */
export async function dictionaryItemsOfYear(deps: Deps, name: string, year: number): Promise<DictionaryItemVersion[]> {
  return itemsOfYear(await deps.repos.dictionaries.versions(storageName(name)), year);
}

export async function getDictionary(deps: Deps, name: string) {
  const def = definition(name);
  const results = (await getDictionaryItems(deps, name)).map(toEntry);
  return { name: def.name, title: def.title, labels: def.labels, results, count: results.length };
}

export async function getDictionaryItem(deps: Deps, name: string, id: number): Promise<DictionaryItemVersion> {
  const item = await deps.repos.dictionaries.get(storageName(name), id);
  if (!item) throw new NotFound(`Запись ${id} справочника ${name} не найдена`);
  return item;
}

export async function dictionaryItemHistory(deps: Deps, name: string, id: number) {
  await getDictionaryItem(deps, name, id);
  const versions = await deps.repos.dictionaries.history(storageName(name), id);
  return versions.sort((a, b) => a.version - b.version);
}

export interface CoefficientChange {
  field: string;
  value: number;
  /** A new uncertainty for the value; null removes it (the value is then taken as exact); absent
   *  keeps it. */
  uncertainty?: UncertaintyBody | null;
  effective_from: string;
  reason: string;
  /** The version the editor saw; a newer stored one is a 409. */
  version: number;
}

/** A changed coefficient becomes a new version; earlier versions stay readable for the calculations
 *  that used them. */
export async function changeCoefficient(
  deps: Deps,
  name: string,
  id: number,
  change: CoefficientChange,
  changedBy: string,
  /** Refuses the new version before it is written (an administrator's GWP re-dating, D32). */
  check?: (next: DictionaryItemVersion) => Promise<void>,
): Promise<DictionaryItemVersion> {
  const current = await getDictionaryItem(deps, name, id);
  const previous = current.values[change.field];
  if (!previous) throw invalidAt("field", `у записи нет коэффициента ${change.field}`);
  if (!Number.isFinite(change.value) || change.value < 0) throw invalidAt("value", "ожидается неотрицательное число");
  if (!change.reason?.trim()) throw invalidAt("reason", "укажите причину изменения");
  isoDateValue(change.effective_from, "effective_from");
  if (change.version !== current.version) {
    throw new Conflict("Коэффициент уже изменен другим пользователем. Обновите страницу и повторите.");
  }
  const { uncertainty: kept, ...rest } = previous;
  const uncertainty =
    change.uncertainty === undefined
      ? kept
      : change.uncertainty === null
        ? undefined
        : { ...change.uncertainty, source: change.uncertainty.source?.trim() || change.reason.trim() };
  // An activity-uncertainty entry's value is its half-width: it follows the larger bound.
  const value =
    storageName(name) === ACTIVITY_UNCERTAINTY && uncertainty ? Math.max(uncertainty.lower_pct, uncertainty.upper_pct) : change.value;
  const valueChanged = value !== previous.value;
  const changed = {
    ...rest,
    value,
    // The document the value is cited from stays; the reason is recorded beside it, and both print
    // wherever the value is used.
    ...(valueChanged || change.uncertainty === undefined ? { tag: "E", change_reason: change.reason.trim() } : {}),
    ...(uncertainty ? { uncertainty } : {}),
  };
  const next: DictionaryItemVersion = {
    ...current,
    values: { ...current.values, [change.field]: changed },
    version: current.version + 1,
    effective_from: change.effective_from,
    changed_at: deps.clock.now().toISOString(),
    changed_by: changedBy,
    reason: change.reason.trim(),
  };
  await check?.(next);
  await deps.repos.dictionaries.putVersion(next);
  return next;
}
