// v1/dictionary/ served: the declarations are in routes/dictionaries.ts.
import { wholeList } from "../contract/routes/declare";
import { dictionaryItemHistory, getDictionary, listDictionaryNames, toEntry } from "../domain/reference/dictionaries";
import { routeApp } from "./openapi-routes";
import { getRoute, historyRoute, listRoute } from "../contract/routes/dictionaries";

export const dictionaryRoutes = routeApp()
  .openapi(listRoute, (c) => c.json(wholeList(listDictionaryNames()), 200))
  .openapi(getRoute, async (c) => c.json(await getDictionary(c.get("deps"), c.req.valid("param").name), 200))
  .openapi(historyRoute, async (c) => {
    const { name, id } = c.req.valid("param");
    const versions = await dictionaryItemHistory(c.get("deps"), name, id);
    const results = versions.map((v) => ({ ...toEntry(v), changed_at: v.changed_at, changed_by: v.changed_by, reason: v.reason }));
    return c.json(wholeList(results), 200);
  });
