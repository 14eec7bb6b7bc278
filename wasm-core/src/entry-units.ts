// Units as users keep them (methodology D13): an activity input typed in the unit of the user's
// records (thousand t of coal, m³ or million m³ of gas) is stored in the canonical unit of D8 beside
// the value and unit as entered. The server stores by this and the dialog previews by it, so both
// compute the same canonical number. Browser-safe: no Node imports.
import { FieldError } from "./field-error";
import type { CalculationDefinition, EntryUnit, NumberField, UploadColumn } from "./registry";

/** What a conversion reads of a field or an upload column. */
type WithUnits = Pick<NumberField, "name" | "unit" | "units">;

/** A value as the user typed it, in the unit chosen. */
export interface EnteredValue {
  readonly value: number;
  readonly unit: string;
}

/** The number inputs of a type that may be entered in another unit, by name. */
export function unitFields(def: CalculationDefinition): Map<string, NumberField & { units: readonly EntryUnit[] }> {
  const fields = def.inputs.filter(
    (f): f is NumberField & { units: readonly EntryUnit[] } => f.type === "number" && "units" in f && !!f.units,
  );
  return new Map(fields.map((f) => [f.name, f]));
}

/** value × 10^power, dividing for a negative power so 1500 m³ is exactly 1.5 thousand m³. */
export function toCanonical(field: WithUnits, entered: EnteredValue): number {
  const unit = field.units?.find((u) => u.unit === entered.unit);
  if (!unit)
    throw new FieldError(
      `entered.${field.name}`,
      `Единица «${entered.unit}» не подходит: ${(field.units ?? []).map((u) => u.unit).join(", ")}`,
    );
  const scale = 10 ** Math.abs(unit.power);
  return unit.power >= 0 ? entered.value * scale : entered.value / scale;
}

/** The canonical value back in an entry unit (the dialog's starting text when the unit changes). */
export function fromCanonical(field: WithUnits, unit: string, canonical: number): number {
  const power = field.units?.find((u) => u.unit === unit)?.power ?? 0;
  const scale = 10 ** Math.abs(power);
  return power >= 0 ? canonical / scale : canonical * scale;
}

/** «3 100 тыс. т» for reading: the value in Russian style with its unit. */
export function enteredText(entered: EnteredValue): string {
  const [whole, fraction] = String(entered.value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");
  return `${grouped}${fraction ? `,${fraction}` : ""} ${entered.unit}`;
}

/** The API's `entered` checked against the type's unit fields: FieldError names «entered.<field>». */
export function checkEntered(def: CalculationDefinition, raw: unknown): Record<string, EnteredValue> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw new FieldError("entered", "Ожидается {поле: {value, unit}}");
  const fields = unitFields(def);
  const checked: Record<string, EnteredValue> = {};
  for (const [name, given] of Object.entries(raw as Record<string, unknown>)) {
    const field = fields.get(name);
    if (!field) throw new FieldError(`entered.${name}`, "Это поле вводится только в основной единице");
    const { value, unit } = (given ?? {}) as { value?: unknown; unit?: unknown };
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new FieldError(`entered.${name}`, "Значение должно быть неотрицательным числом");
    }
    if (typeof unit !== "string") throw new FieldError(`entered.${name}`, "Укажите единицу");
    checked[name] = { value, unit };
    toCanonical(field, checked[name]);
  }
  return checked;
}

/** An upload row with each number column that has a unit column beside it (sensitivity's
 *  volume_unit) in its canonical unit; a blank unit is the canonical one. FieldError names the unit column. */
export function canonicalRow<V>(columns: readonly UploadColumn[], values: Readonly<Record<string, V>>): Record<string, V | number> {
  const row: Record<string, V | number> = { ...values };
  for (const unitColumn of columns.filter((c) => c.unitOf)) {
    const column = columns.find((c) => c.name === unitColumn.unitOf)!;
    const unit = values[unitColumn.name];
    const value = values[column.name];
    if (typeof unit !== "string" || unit.trim() === "" || typeof value !== "number") continue;
    try {
      row[column.name] = toCanonical(column, { value, unit: unit.trim() });
    } catch (error) {
      if (error instanceof FieldError) throw new FieldError(unitColumn.name, error.message);
      throw error;
    }
  }
  return row;
}

/** Relative difference below which a canonical value sent beside `entered` is the same number. */
const SAME = 1e-12;

/**
 * D13 for a create or an edit, in one call: the request's `entered` checked against the type's unit
 * fields, each value typed in another unit in its canonical one (a canonical value sent beside it must
 * agree), and what was typed, to keep beside it; on an edit, a value left as it was keeps what was
 * typed for it before. FieldError names the field.
 */
export function enteredValues(
  def: CalculationDefinition,
  values: Readonly<Record<string, unknown>>,
  previous?: { readonly inputs: Readonly<Record<string, unknown>>; readonly entered?: Readonly<Record<string, EnteredValue>> },
): { values: Record<string, unknown>; entered?: Record<string, EnteredValue> } {
  const { entered: raw, ...rest } = values;
  const canonical: Record<string, unknown> = { ...rest };
  const sent = checkEntered(def, raw);
  const entered: Record<string, EnteredValue> = {};
  for (const [name, field] of unitFields(def)) {
    const typed = sent[name];
    if (typed) {
      const value = toCanonical(field, typed);
      // On an edit the stored canonical value is merged in: only a value sent now must agree.
      const given = canonical[name] === previous?.inputs[name] ? undefined : canonical[name];
      if (typeof given === "number" && Math.abs(given - value) > SAME * Math.max(1, Math.abs(value))) {
        throw new FieldError(name, `значение ${given} ${field.unit} не совпадает с введённым (${typed.value} ${typed.unit})`);
      }
      canonical[name] = value;
      entered[name] = typed;
    } else if (previous?.entered?.[name] && canonical[name] === previous.inputs[name]) {
      entered[name] = previous.entered[name];
    }
  }
  return { values: canonical, ...(Object.keys(entered).length ? { entered } : {}) };
}
