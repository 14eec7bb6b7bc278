// v1/{calcType}/ (SPEC 7) for the formula types: list, create, single_calc, update / archive.
import { Hono } from "hono";
import * as z from "zod/mini";
import {
  calculationView,
  createCalculation,
  getCalculation,
  listCalculations,
  patchCalculation,
} from "../domain/calculations";
import { booleanParam, pageParams } from "../schemas/common";
import type { AppEnv } from "./env";
import { validate } from "./validate";
import { DEFAULT_PAGE_SIZE } from "./projects";

const listQuery = z.object({
  ...pageParams(),
  project: z.string("project: укажите проект").check(z.minLength(1, "project: укажите проект")),
  is_active: booleanParam,
  is_deleted: booleanParam,
});

// Common fields are checked here; the type's own fields (volume, ef, …) are validated against the
// registry by the domain and the core's facade, which name the field in their errors.
const common = {
  name: z.optional(z.unknown()),
  dictionary_items: z.optional(
    z.record(z.string(), z.nullable(z.number("dictionary_items: ожидается номер записи или null").check(z.int()))),
  ),
  gwp_set: z.optional(z.number("gwp_set: ожидается номер набора ПГП").check(z.int())),
};
const createBody = z.looseObject({ ...common, project: z.optional(z.unknown()) });
const patchBody = z.looseObject({
  ...common,
  is_active: z.optional(z.boolean("is_active: ожидается true или false")),
  is_deleted: z.optional(z.boolean("is_deleted: ожидается true или false")),
  version: z.optional(z.number("version: ожидается целое число").check(z.int())),
});

const RESERVED = new Set(["name", "project", "dictionary_items", "gwp_set", "is_active", "is_deleted", "version", "id"]);
const fieldValues = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED.has(key)));

export const calculationRoutes = new Hono<AppEnv>({ strict: false })
  .get("/:type", validate("query", listQuery), async (c) => {
    const q = c.req.valid("query");
    const page = await listCalculations(
      c.get("deps"),
      c.get("actor"),
      c.req.param("type"),
      q.project,
      q.is_deleted === "true" ? "archived" : "active",
      { limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0 },
    );
    return c.json({ results: page.results.map(calculationView), count: page.count }, 200);
  })
  .post("/:type", validate("json", createBody), async (c) => {
    const body = c.req.valid("json");
    const created = await createCalculation(c.get("deps"), c.get("actor"), c.req.param("type"), {
      name: body.name,
      project: body.project,
      dictionary_items: body.dictionary_items,
      gwp_set: body.gwp_set,
      values: fieldValues(body),
    });
    return c.json(calculationView(created), 201);
  })
  .get("/:type/:id/single_calc/:n", async (c) => {
    const calculation = await getCalculation(c.get("deps"), c.get("actor"), c.req.param("type"), c.req.param("id"));
    return c.json(calculationView(calculation), 200);
  })
  .get("/:type/:id", async (c) => {
    const calculation = await getCalculation(c.get("deps"), c.get("actor"), c.req.param("type"), c.req.param("id"));
    return c.json(calculationView(calculation), 200);
  })
  .patch("/:type/:id", validate("json", patchBody), async (c) => {
    const body = c.req.valid("json");
    const updated = await patchCalculation(c.get("deps"), c.get("actor"), c.req.param("type"), c.req.param("id"), {
      name: body.name,
      dictionary_items: body.dictionary_items,
      gwp_set: body.gwp_set,
      is_active: body.is_active,
      is_deleted: body.is_deleted,
      version: body.version,
      values: fieldValues(body),
    });
    return c.json(calculationView(updated), 200);
  });
