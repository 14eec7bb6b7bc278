// v1/dictionary/ (SPEC 7): the reference dictionaries, current versions, and an item's history.
import * as z from "zod";
import { dictionaryItemHistory, getDictionary, listDictionaryNames, toEntry } from "../domain/dictionaries";
import { dictionaryHistorySchema, dictionaryNamesSchema, dictionarySchema } from "../schemas/answers";
import type { Access } from "./openapi-routes";
import { declareRoute, json, pathParam, routeApp } from "./openapi-routes";

const referenceData = (access: Pick<Access, "operationId" | "summary" | "errors">): Access => ({
  ...access,
  tag: "dictionaries",
  auth: "user",
  isolation: { scope: "platform", note: "reference data, the same for every company" },
});

export const dictionaryName = pathParam("Dictionary name (v1/dictionary/ lists them)");
/** An entry's number as the path writes it. */
export const entryNumber = z
  .string()
  .refine((raw) => Number.isInteger(Number(raw)) && Number(raw) > 0, "id: ожидается целое положительное число")
  .transform(Number)
  .meta({ description: "Entry number (1, 2, …)" });

const listRoute = declareRoute(
  referenceData({ operationId: "listDictionaries", summary: "Names and titles of the reference dictionaries", errors: [] }),
  { method: "get", path: "/", responses: { 200: json(dictionaryNamesSchema, "The dictionaries") } },
);

const getRoute = declareRoute(
  referenceData({
    operationId: "getDictionary",
    summary: "Current entries of a dictionary with units, sources and versions",
    errors: [404],
  }),
  {
    method: "get",
    path: "/{name}",
    request: { params: z.object({ name: dictionaryName }) },
    responses: { 200: json(dictionarySchema, "The dictionary") },
  },
);

const historyRoute = declareRoute(
  referenceData({ operationId: "dictionaryHistory", summary: "Every version of a dictionary entry", errors: [400, 404] }),
  {
    method: "get",
    path: "/{name}/{id}/history",
    request: { params: z.object({ name: dictionaryName, id: entryNumber }) },
    responses: { 200: json(dictionaryHistorySchema, "Versions with changed_at, changed_by, reason") },
  },
);

export const dictionaryRoutes = routeApp()
  .openapi(listRoute, (c) => {
    const results = listDictionaryNames();
    return c.json({ results, count: results.length }, 200);
  })
  .openapi(getRoute, async (c) => c.json(await getDictionary(c.get("deps"), c.req.valid("param").name), 200))
  .openapi(historyRoute, async (c) => {
    const { name, id } = c.req.valid("param");
    const versions = await dictionaryItemHistory(c.get("deps"), name, id);
    const results = versions.map((v) => ({ ...toEntry(v), changed_at: v.changed_at, changed_by: v.changed_by, reason: v.reason }));
    return c.json({ results, count: results.length }, 200);
  });
