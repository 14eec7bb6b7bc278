// v1/dictionary/ (SPEC 7): the reference dictionaries, current versions, and an item's history.
import { Hono } from "hono";
import { dictionaryItemHistory, getDictionary, listDictionaryNames, toEntry } from "../domain/dictionaries";
import { Invalid } from "../domain/errors";
import type { AppEnv } from "./env";

function itemId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new Invalid("id: ожидается целое положительное число");
  return id;
}

export const dictionaryRoutes = new Hono<AppEnv>({ strict: false })
  .get("/", (c) => {
    const results = listDictionaryNames();
    return c.json({ results, count: results.length }, 200);
  })
  .get("/:name", async (c) => c.json(await getDictionary(c.get("deps"), c.req.param("name")), 200))
  .get("/:name/:id/history", async (c) => {
    const versions = await dictionaryItemHistory(c.get("deps"), c.req.param("name"), itemId(c.req.param("id")));
    const results = versions.map((v) => ({ ...toEntry(v), changed_at: v.changed_at, changed_by: v.changed_by, reason: v.reason }));
    return c.json({ results, count: results.length }, 200);
  });
