// v1/dictionary/ (docs/api.md), declared: the reference dictionaries, current versions, and an
// entry's history. Served by http/dictionaries.ts.
import * as z from "zod";
import { dictionaryHistorySchema, dictionaryNamesSchema, dictionarySchema } from "../schemas/answers";
import { declareRoute, json, pathParam, type Access } from "./declare";

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

export const listRoute = declareRoute(
  referenceData({ operationId: "listDictionaries", summary: "Names and titles of the reference dictionaries", errors: [] }),
  { method: "get", path: "/", responses: { 200: json(dictionaryNamesSchema, "The dictionaries") } },
);

export const getRoute = declareRoute(
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

export const historyRoute = declareRoute(
  referenceData({ operationId: "dictionaryHistory", summary: "Every version of a dictionary entry", errors: [400, 404] }),
  {
    method: "get",
    path: "/{name}/{id}/history",
    request: { params: z.object({ name: dictionaryName, id: entryNumber }) },
    responses: { 200: json(dictionaryHistorySchema, "Versions with changed_at, changed_by, reason") },
  },
);

/** Every route of v1/dictionary/ above, in the order http/dictionaries.ts serves them. */
export const DICTIONARY_ROUTES = [listRoute, getRoute, historyRoute] as const;
