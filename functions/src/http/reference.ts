// v1/reference/ served: the declarations are in routes/reference.ts.
import { confirmMethaneLimitsRoute, listMethaneLimitsRoute } from "../contract/routes/reference";
import { confirmMethaneLimits, methaneLimitRows } from "../domain/monitoring/derive/methane-limits";
import { routeApp } from "./openapi-routes";

export const referenceRoutes = routeApp()
  .openapi(listMethaneLimitsRoute, async (c) => {
    const deps = c.get("deps");
    return c.json(await methaneLimitRows(deps, deps.clock.now().getTime()), 200);
  })
  .openapi(confirmMethaneLimitsRoute, async (c) =>
    c.json(await confirmMethaneLimits(c.get("deps"), c.get("actor"), c.req.valid("json")), 201),
  );
