// v1/inventory/ served (domain/inventory.ts): the declarations are in routes/inventory.ts.
import { getInventory, inventoryTotalsByYear, parseInventoryYear } from "../domain/inventory";
import { addComment, transition } from "../domain/inventory-review";
import { getVersionText, listVersions } from "../domain/inventory-versions";
import { inventoryState } from "../domain/inventory-state";
import { Invalid } from "../domain/errors";
import { routeApp } from "./openapi-routes";
import { commentRoute, inventoryRoute, reviewRoute, versionRoute, versionsRoute, yearsRoute } from "../routes/inventory";

export const inventoryRoutes = routeApp()
  .openapi(inventoryRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await getInventory(c.get("deps"), c.get("actor"), parseInventoryYear(q.year), q.facility || undefined), 200);
  })
  .openapi(yearsRoute, async (c) => c.json(await inventoryTotalsByYear(c.get("deps"), c.get("actor")), 200))
  .openapi(reviewRoute, async (c) => {
    const deps = c.get("deps");
    const year = parseInventoryYear(c.req.valid("param").year);
    const actor = c.get("actor");
    const snapshot = (_companyId: string, y: number) => inventoryState(deps, actor, y);
    return c.json(await transition(deps, c.get("actor"), year, c.req.valid("json"), snapshot), 200);
  })
  .openapi(commentRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await addComment(c.get("deps"), c.get("actor"), year, c.req.valid("json")), 200);
  })
  .openapi(versionsRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await listVersions(c.get("deps"), c.get("actor"), year), 200);
  })
  .openapi(versionRoute, async (c) => {
    const { year, version } = c.req.valid("param");
    if (!/^[1-9]\d{0,5}$/.test(version)) throw new Invalid("version: ожидается номер версии 1, 2, …");
    const text = await getVersionText(c.get("deps"), c.get("actor"), parseInventoryYear(year), Number(version));
    // The stored bytes as they are (their SHA-256 is the one the version list shows), not
    // re-serialised by c.json: hence the cast to the declared JSON answer.
    return c.body(text, 200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" }) as never;
  });
