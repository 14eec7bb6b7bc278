// v1/facilities/ served: the declarations are in routes/facilities.ts.
import { createFacility, getFacility, listFacilities, patchFacility } from "../domain/facilities";
import { routeApp } from "./openapi-routes";
import { createRoute, getRoute, listRoute, patchRoute } from "../contract/routes/facilities";

export const facilityRoutes = routeApp()
  .openapi(listRoute, async (c) => c.json(await listFacilities(c.get("deps"), c.get("actor")), 200))
  .openapi(createRoute, async (c) => c.json(await createFacility(c.get("deps"), c.get("actor"), c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => c.json(await getFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200))
  .openapi(patchRoute, async (c) =>
    c.json(await patchFacility(c.get("deps"), c.get("actor"), c.req.valid("param").id, c.req.valid("json")), 200),
  );
