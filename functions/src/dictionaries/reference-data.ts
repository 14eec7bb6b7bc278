// Typed access to reference-data.json, the one data file with the default coefficients. Every
// value carries its unit, provenance tag and reference (docs/methodology.md, Sources).
import data from "./reference-data.json";
import type * as z from "zod";
import type { uncertaintySchema } from "../contract/schemas/uncertainty";

/** A value's uncertainty (docs/methodology.md, Uncertainty): its 95 % interval as −lower_pct / +upper_pct
 *  of the value, the distribution a Monte Carlo run draws it from, and where that comes from (a key
 *  into `references`, or the text an administrator wrote). */
export type ValueUncertainty = Required<z.output<typeof uncertaintySchema>>;

/** Activity-data uncertainties by kind (coal production, measured gas flows): the registry's
 *  `activity` of an input names the entry; an administrator edits them like any coefficient. */
export const ACTIVITY_UNCERTAINTY = "get_activity_uncertainty";

export interface SourcedValue {
  value: number;
  unit: string;
  /** Provenance tag (docs/methodology.md, Sources): S<n>, T, R or A; E for a value an administrator set. */
  tag: string;
  /** Key into `references`: the document the value is cited from, kept when an administrator
   *  changes the value. */
  ref: string;
  /** Why an administrator changed the value (tag E), recorded beside its document; printed with it. */
  change_reason?: string;
  uncertainty?: ValueUncertainty;
}

export interface ReferenceItem {
  id: number;
  name: string;
  values: Record<string, SourcedValue>;
}

export interface ReferenceDictionary {
  name: string;
  title: string;
  /** What each value field is called on screen («Плотность CH4», not p_ch4). */
  labels: Record<string, string>;
  /** Another dictionary whose items this one serves (one physical table, two API names). */
  sameItemsAs?: string;
  items: ReferenceItem[];
}

export const METHODOLOGY_VERSION: string = data.methodology_version;
export const REFERENCES: Record<string, string> = data.references;
/** The date of the document a reference cites, where its text states one (ISO). */
export const REFERENCE_DATES: Record<string, string> = data.reference_dates;

export const REFERENCE_DICTIONARIES: ReferenceDictionary[] = data.dictionaries.map((d) => {
  const raw = d as {
    name: string;
    title: string;
    labels?: Record<string, string>;
    same_items_as?: string;
    items?: Array<Record<string, unknown>>;
  };
  const labels = raw.labels ?? data.dictionaries.find((other) => other.name === raw.same_items_as)?.labels ?? {};
  return {
    name: raw.name,
    title: raw.title,
    labels: labels as Record<string, string>,
    sameItemsAs: raw.same_items_as,
    items: (raw.items ?? []).map(({ id, name, ...values }) => ({
      id: id as number,
      name: name as string,
      values: values as Record<string, SourcedValue>,
    })),
  };
});

export const DICTIONARY_NAMES = REFERENCE_DICTIONARIES.map((d) => d.name);

/** The source as users read it: the document, table or formula (plain language). The
 *  provenance tag stays a separate field; admins see it in words (`verificationOf`). */
export function describeSource(value: Pick<SourcedValue, "ref" | "change_reason">): string {
  const document = REFERENCES[value.ref] ?? value.ref;
  return value.change_reason ? `${document}; ${CHANGED_BY_ADMIN} ${value.change_reason}` : document;
}

/** How a value an administrator changed names the reason beside its document. */
export const CHANGED_BY_ADMIN = "значение изменено администратором, причина:";

/** How far a default has been checked against its document, as a code the admin screen words. */
export type Verification = "verified" | "transcription" | "recalled" | "assumption" | "changed";

/** Provenance tags whose values were read only through a secondary copy (docs/methodology.md), with
 *  the copy in words: the admin screen says «по неофициальной копии», docs/methodology.md lists them. */
export const SECONDARY_SOURCES: Record<string, string> = data.secondary_sources;

/** Seeded defaults found wrong after installations stored them: seeding adds the JSON's value as a
 *  new version of the item (stored calculations keep the version they recorded). */
export interface SeedCorrection {
  dictionary: string;
  id: number;
  field: string;
  /** The wrong value: only an item still holding it (not an administrator's own) is corrected. */
  from: number;
  effective_from: string;
  reason: string;
}
export const CORRECTIONS: SeedCorrection[] = data.corrections;

export function verificationOf(tag: string): Verification {
  if (tag in SECONDARY_SOURCES) return "transcription";
  if (tag === "R") return "recalled";
  if (tag === "A") return "assumption";
  if (tag === "E") return "changed";
  return "verified";
}

// Calculations stored before plain references recorded «[T] Приказ … (по транскрипции [S4], не
// сверено …)»; they keep that record, and readers show it through this.
const LEGACY_NOTES = [
  /^\[(?:S\d+|T|R|A)\]\s*/,
  /\s*\[(?:S\d+|T|R|A)\]/g,
  /\s*\((?:по транскрипции|по памяти автора методики|methodology|решение D)[^)]*\)/g,
  /;\s*сверено со справочными данными/g,
  /\s*\(Q\d+\)/g,
  /,?\s*methodology [\d.]+/g,
];

export function plainReference(text: string): string {
  // The panel is named in Russian on screen and in exports: a reference stored as «IPCC 2006, …» reads «МГЭИК 2006, …».
  return LEGACY_NOTES.reduce((clean, pattern) => clean.replace(pattern, ""), text)
    .replace(/\bIPCC\b/g, "МГЭИК")
    .trim();
}

/** Every default read through a secondary copy, cited by document, table and row (the row is the
 *  item's name unless the value names its own `row`), with the copy it came through. */
export interface TranscribedValue {
  dictionary: string;
  id: number;
  row: string;
  field: string;
  label: string;
  value: number;
  unit: string;
  document: string;
  copy: string;
}

export function transcribedValues(): TranscribedValue[] {
  const list: TranscribedValue[] = [];
  for (const d of REFERENCE_DICTIONARIES) {
    for (const item of d.items) {
      for (const [field, v] of Object.entries(item.values)) {
        if (!(v.tag in SECONDARY_SOURCES)) continue;
        list.push({
          dictionary: d.name,
          id: item.id,
          row: (v as SourcedValue & { row?: string }).row ?? item.name,
          field,
          label: d.labels[field] ?? field,
          value: v.value,
          unit: v.unit,
          document: describeSource(v),
          copy: SECONDARY_SOURCES[v.tag],
        });
      }
    }
  }
  return list;
}

/** docs/methodology.md's list of transcribed defaults (between its markers; a test keeps it in step). */
export function transcribedValuesMarkdown(): string {
  const lines = ["| справочник, № | строка | коэффициент | значение | документ, таблица | получено через |", "|---|---|---|---|---|---|"];
  for (const t of transcribedValues()) {
    const value = String(t.value).replace(".", ",");
    lines.push(
      `| \`${t.dictionary}\`, ${t.id} | ${t.row} | ${t.label} (\`${t.field}\`) | ${value} ${t.unit} | ${t.document} | ${t.copy} |`,
    );
  }
  return lines.join("\n");
}
