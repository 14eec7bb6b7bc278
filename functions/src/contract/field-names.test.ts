// Issue 105 item 6: an error's detail named its field as the API spells it («date: день … еще не
// наступил»). Every field the mine's monitoring routes take has a Russian name, and the detail says it.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { detailOf, lineOf } from "./field-errors";
import { FIELD_NAMES, fieldName } from "./field-names";
import { FACILITY_ROUTES } from "./routes/facilities";
import { TELEMETRY_PUSH_ROUTES, TELEMETRY_ROUTES } from "./routes/monitoring";
import { REFERENCE_ROUTES } from "./routes/reference";

/** The field names a schema takes, at any depth. */
function fieldsOf(schema: unknown, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (!(schema instanceof z.ZodType) || seen.has(schema)) return into;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown>;
  if (def.type === "object") {
    for (const [name, field] of Object.entries(def.shape as Record<string, unknown>)) {
      into.add(name);
      fieldsOf(field, into, seen);
    }
  }
  for (const key of ["innerType", "element", "valueType", "in", "out", "schema"]) fieldsOf(def[key], into, seen);
  for (const option of (def.options as unknown[] | undefined) ?? []) fieldsOf(option, into, seen);
  return into;
}

describe("a field in an error's detail", () => {
  it("has a Russian name for every field the monitoring routes take", () => {
    const fields = new Set<string>();
    for (const route of [...TELEMETRY_ROUTES, ...TELEMETRY_PUSH_ROUTES, ...FACILITY_ROUTES, ...REFERENCE_ROUTES]) {
      const request = (
        route as { request?: { params?: unknown; query?: unknown; body?: { content?: Record<string, { schema?: unknown }> } } }
      ).request;
      for (const part of [request?.params, request?.query, request?.body?.content?.["application/json"]?.schema]) fieldsOf(part, fields);
    }
    expect(fields.size).toBeGreaterThan(40);
    expect([...fields].filter((field) => !(field in FIELD_NAMES)).sort()).toEqual([]);
  });

  it("says the field in words, its items by number", () => {
    expect(lineOf({ field: "date", message: "день 27.11.2026 еще не наступил" })).toBe("Дата: день 27.11.2026 еще не наступил");
    expect(fieldName("readings[2].t")).toBe("Показания, № 3, Время");
    expect(
      detailOf([
        { field: "sensor", message: "такого датчика метана нет в выработке" },
        { field: "horizon", message: "от 10 до 360" },
      ]),
    ).toBe("Датчик: такого датчика метана нет в выработке; Горизонт прогноза: от 10 до 360");
  });
});
