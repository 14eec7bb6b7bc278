// Typed access to reference-data.json, the one data file with the default coefficients. Every
// value carries its unit, provenance tag and reference (methodology.md 0.1, 0.4).
import data from "./reference-data.json";

export interface SourcedValue {
  value: number;
  unit: string;
  /** Provenance tag of methodology.md 0.1: S<n>, T, R or A. */
  tag: string;
  /** Key into `references`. */
  ref: string;
}

export interface ReferenceItem {
  id: number;
  name: string;
  values: Record<string, SourcedValue>;
}

export interface ReferenceDictionary {
  name: string;
  title: string;
  /** Another dictionary whose items this one serves (one physical table, two API names). */
  sameItemsAs?: string;
  items: ReferenceItem[];
}

export const METHODOLOGY_VERSION: string = data.methodology_version;
export const REFERENCES: Record<string, string> = data.references;

export const REFERENCE_DICTIONARIES: ReferenceDictionary[] = data.dictionaries.map((d) => {
  const raw = d as { name: string; title: string; same_items_as?: string; items?: Array<Record<string, unknown>> };
  return {
    name: raw.name,
    title: raw.title,
    sameItemsAs: raw.same_items_as,
    items: (raw.items ?? []).map(({ id, name, ...values }) => ({
      id: id as number,
      name: name as string,
      values: values as Record<string, SourcedValue>,
    })),
  };
});

export const DICTIONARY_NAMES = REFERENCE_DICTIONARIES.map((d) => d.name);

export function describeSource(value: Pick<SourcedValue, "tag" | "ref">): string {
  const reference = REFERENCES[value.ref] ?? value.ref;
  // Some references already end with their source tag; say it once, in front.
  return `[${value.tag}] ${reference.replace(` [${value.tag}]`, "")}`;
}
