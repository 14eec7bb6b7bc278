// v1/company/factors/ served (methodology D107): the declarations are in contract/routes/own-factors.ts,
// the work in domain/calculations/own-factors.ts.
import { wholeList } from "../contract/routes/declare";
import { createOwnFactorRoute, listOwnFactorsRoute } from "../contract/routes/own-factors";
import { createOwnFactor, listOwnFactors } from "../domain/calculations/own-factors";
import { routeApp } from "./openapi-routes";

export const ownFactorRoutes = routeApp()
  .openapi(listOwnFactorsRoute, async (c) =>
    c.json(wholeList(await listOwnFactors(c.get("deps"), c.get("actor"), c.req.valid("query"))), 200),
  )
  .openapi(createOwnFactorRoute, async (c) => c.json(await createOwnFactor(c.get("deps"), c.get("actor"), c.req.valid("json")), 201));
