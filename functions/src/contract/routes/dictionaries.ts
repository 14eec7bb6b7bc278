// v1/dictionary/ (docs/api.md), declared: the reference dictionaries, current versions, and an
// entry's history. Served by http/dictionaries.ts.
import * as z from "zod";
import { dictionaryHistorySchema, dictionaryNamesSchema, dictionarySchema } from "../schemas/answers";
import { json, pathParam, route, userAccess } from "./declare";

const referenceData = userAccess("dictionaries", { scope: "platform", note: "reference data, the same for every company" });

export const dictionaryName = pathParam("Dictionary name (v1/dictionary/ lists them)");
/** An entry's number as the path writes it. */
export const entryNumber = z
  .string()
  .refine((raw) => Number.isInteger(Number(raw)) && Number(raw) > 0, "ожидается целое положительное число")
  .transform(Number)
  .meta({ description: "Entry number (1, 2, …)" });

const dictionaryParams = z.object({ name: dictionaryName });
/** A dictionary's entry (its history; an admin's change of it). */
export const entryParams = dictionaryParams.extend({ id: entryNumber });

export const listRoute = route(referenceData("listDictionaries", "Names and titles of the reference dictionaries", []), {
  get: "/",
  cost: "light",
  200: json(dictionaryNamesSchema, "The dictionaries"),
});

export const getRoute = route(referenceData("getDictionary", "Current entries of a dictionary with units, sources and versions", [404]), {
  get: "/{name}",
  cost: "light",
  params: dictionaryParams,
  200: json(dictionarySchema, "The dictionary"),
});

export const historyRoute = route(referenceData("dictionaryHistory", "Every version of a dictionary entry", [400, 404]), {
  get: "/{name}/{id}/history",
  cost: "light",
  params: entryParams,
  200: json(dictionaryHistorySchema, "Versions with changed_at, changed_by, reason"),
});

/** Every route of v1/dictionary/ above, in the order http/dictionaries.ts serves them. */
export const DICTIONARY_ROUTES = [listRoute, getRoute, historyRoute] as const;
