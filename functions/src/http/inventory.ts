// v1/inventory/ served (domain/inventory.ts): the declarations are in routes/inventory.ts.
import { calculationsOfYear, getInventory, inventoryTotalsByYear, parseInventoryYear } from "../domain/inventory";
import { transition } from "../domain/inventory-review";
import { addComment, listComments, removeComment } from "../domain/inventory-comments";
import { assertSendable } from "../domain/inventory-send";
import { routeApp } from "./openapi-routes";
import { commentRoute, inventoryRoute, listCommentsRoute, removeCommentRoute, reviewRoute, yearsRoute } from "../routes/inventory";

export const inventoryRoutes = routeApp()
  .openapi(inventoryRoute, async (c) => {
    const q = c.req.valid("query");
    return c.json(await getInventory(c.get("deps"), c.get("actor"), parseInventoryYear(q.year), q.facility || undefined), 200);
  })
  .openapi(yearsRoute, async (c) => c.json(await inventoryTotalsByYear(c.get("deps"), c.get("actor")), 200))
  .openapi(reviewRoute, async (c) => {
    const deps = c.get("deps");
    const year = parseInventoryYear(c.req.valid("param").year);
    const snapshot = (companyId: string, y: number) => calculationsOfYear(deps, companyId, y);
    await assertSendable(deps, c.get("actor"), year, c.req.valid("json"));
    return c.json(await transition(deps, c.get("actor"), year, c.req.valid("json"), snapshot), 200);
  })
  .openapi(commentRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    return c.json(await addComment(c.get("deps"), c.get("actor"), year, c.req.valid("json")), 201);
  })
  .openapi(listCommentsRoute, async (c) => {
    const year = parseInventoryYear(c.req.valid("param").year);
    const q = c.req.valid("query");
    return c.json(await listComments(c.get("deps"), c.get("actor"), year, { limit: q.limit ?? 20, offset: q.offset ?? 0 }), 200);
  })
  .openapi(removeCommentRoute, async (c) => {
    const { year, id } = c.req.valid("param");
    await removeComment(c.get("deps"), c.get("actor"), parseInventoryYear(year), id);
    return c.json({ detail: "Комментарий удален" }, 200);
  });
