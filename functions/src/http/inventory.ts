// v1/inventory/: the company's inventory of a reporting year (domain/inventory.ts).
import * as z from "zod";
import { getInventory, inventoryTotalsByYear, parseInventoryYear } from "../domain/inventory";
import { inventorySchema, yearTotalsSchema } from "../schemas/answers";
import type { OwnedId } from "./openapi";
import { declareRoute, json, routeApp } from "./openapi-routes";

export const inventoryQuery = z.object({
  year: z.optional(z.string().meta({ description: "The reporting year, e.g. 2025" })),
  /** A facility of the company; none: the whole company. */
  facility: z.optional(z.string().max(64, "facility: ожидается идентификатор площадки").meta({ description: "A facility of the company; none: all" })),
});
const facilityInQuery: OwnedId = { in: "query", name: "facility", object: "facility" };

const inventoryRoute = declareRoute(
  {
    operationId: "getInventory",
    summary: "The year's inventory: primary calculations by Order 371 category, IPCC code and gas at the year's GWP, threshold and checks",
    description:
      "Counts the primary calculations of the projects whose reporting year is `year` (of one facility when given); " +
      "CH4 in t CO2-eq with the GWP set in force for that year; alternatives are listed and never summed.",
    tag: "inventory",
    auth: "user",
    isolation: { scope: "company", ids: [facilityInQuery] },
    errors: [400, 404],
  },
  { method: "get", path: "/", request: { query: inventoryQuery }, responses: { 200: json(inventorySchema, "The inventory") } },
);

const yearsRoute = declareRoute(
  {
    operationId: "inventoryYears",
    summary: "Totals per reporting year (primary calculations, each year at its own GWP)",
    tag: "inventory",
    auth: "user",
    isolation: { scope: "own" },
    errors: [],
  },
  { method: "get", path: "/years", responses: { 200: json(z.array(yearTotalsSchema), "Totals per year") } },
);

export const inventoryRoutes = routeApp()
  .openapi(inventoryRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await getInventory(c.get("deps"), c.get("actor"), parseInventoryYear(q.year), q.facility || undefined), 200);
  })
  .openapi(yearsRoute, async (c) => c.json(await inventoryTotalsByYear(c.get("deps"), c.get("actor")), 200));
