// v1/inventory/: the company's inventory of a reporting year (domain/inventory.ts).
import { Hono } from "hono";
import * as z from "zod/mini";
import { getInventory, inventoryTotalsByYear, parseInventoryYear } from "../domain/inventory";
import type { AppEnv } from "./env";
import { validate } from "./validate";

export const inventoryQuery = z.object({
  year: z.optional(z.string()),
  /** A facility of the company; none: the whole company. */
  facility: z.optional(z.string().check(z.maxLength(64, "facility: ожидается идентификатор площадки"))),
});

export const inventoryRoutes = new Hono<AppEnv>({ strict: false })
  .get("/", validate("query", inventoryQuery), async (c) => {
    const q = c.req.valid("query");
    const inventory = await getInventory(c.get("deps"), c.get("actor"), parseInventoryYear(q.year), q.facility || undefined);
    return c.json(inventory, 200);
  })
  .get("/years", async (c) => c.json(await inventoryTotalsByYear(c.get("deps"), c.get("actor")), 200));
