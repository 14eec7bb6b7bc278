// an error's detail named its field as the API spells it («date: день … еще не
// наступил», «start_date: …», «email: …»). Every field every route takes has a Russian name, and the
// detail says it.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { detailOf, lineOf } from "./field-errors";
import { FIELD_NAMES, fieldName } from "./field-names";

/** Each field a schema takes, at any depth, as «parent.key» (the root's parent is ""). */
function fieldsOf(schema: unknown, parent = "", into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (!(schema instanceof z.ZodType) || seen.has(schema)) return into;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown>;
  if (def.type === "object") {
    for (const [name, field] of Object.entries(def.shape as Record<string, unknown>)) {
      into.add(`${parent}.${name}`);
      fieldsOf(field, name, into, new Set(seen));
    }
  }
  for (const key of ["innerType", "element", "valueType", "in", "out", "schema", "left", "right"]) fieldsOf(def[key], parent, into, seen);
  for (const option of (def.options as unknown[] | undefined) ?? []) fieldsOf(option, parent, into, seen);
  return into;
}

type Route = { request?: { params?: unknown; query?: unknown; body?: { content?: Record<string, { schema?: unknown }> } } };

/** Every route of every module in routes/: each export named `*_ROUTES`. */
async function everyRoute(): Promise<Route[]> {
  const folder = join(import.meta.dirname, "routes");
  const routes: Route[] = [];
  for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
    const module = (await import(join(folder, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (name.endsWith("_ROUTES")) routes.push(...(value as Route[]));
  }
  return routes;
}

describe("a field in an error's detail", () => {
  it("has a Russian name for every field every route takes", async () => {
    const routes = await everyRoute();
    expect(routes.length).toBeGreaterThan(150);
    const fields = new Set<string>();
    for (const { request } of routes) {
      const bodies = Object.values(request?.body?.content ?? {}).map((content) => content.schema);
      for (const part of [request?.params, request?.query, ...bodies]) fieldsOf(part, "", fields);
    }
    expect(fields.size).toBeGreaterThan(250);
    const unnamed = [...fields].filter((field) => {
      const key = field.slice(field.indexOf(".") + 1);
      return !Object.hasOwn(FIELD_NAMES, field) && !Object.hasOwn(FIELD_NAMES, key);
    });
    expect(unnamed.sort()).toEqual([]);
  });

  it("says the field in words, its items by number", () => {
    expect(lineOf({ field: "date", message: "день 27.11.2026 еще не наступил" })).toBe("Дата: день 27.11.2026 еще не наступил");
    expect(fieldName("readings[2].t")).toBe("Показания, № 3, Время");
    expect(fieldName("start_date")).toBe("Дата начала");
    expect(
      detailOf([
        { field: "sensor", message: "такого датчика метана нет в выработке" },
        { field: "horizon", message: "от 10 до 360" },
      ]),
    ).toBe("Датчик: такого датчика метана нет в выработке; Горизонт прогноза: от 10 до 360");
  });

  it("names a key by what it means inside its object", () => {
    expect(fieldName("t")).toBe("Время");
    expect(fieldName("devices[0].hours[1].segments[2].t")).toBe("Устройства, № 1, Часы, № 2, Отрезки часа, № 3, Температура газа");
    expect(fieldName("devices.0.kind")).toBe("Устройства, № 1, Вид");
    expect(fieldName("period.fuels[0].t")).toBe("Период, Топливо, № 1, Масса топлива, т");
  });

  it("says a field with a part it cannot name as the API spells it", () => {
    expect(fieldName("overrides.VAM_1.FLARE.eta_el")).toBe("overrides.VAM_1.FLARE.eta_el");
    expect(fieldName("constructor")).toBe("constructor");
  });
});
