// v1/forecast/: what-if and the air needed for one row (domain/forecast/what-if.ts).
import { airNeededRoute, forecastUploadUrlRoute, whatIfRoute } from "../contract/routes/forecast";
import { forecastUploadUrl } from "../domain/forecast/uploads";
import { forecastAirNeeded, forecastWhatIf } from "../domain/forecast/what-if";
import { routeApp } from "./openapi-routes";

export const forecastRoutes = routeApp()
  .openapi(whatIfRoute, async (c) => c.json(await forecastWhatIf(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(airNeededRoute, async (c) => c.json(await forecastAirNeeded(c.get("deps"), c.get("actor"), c.req.valid("json")), 200))
  .openapi(forecastUploadUrlRoute, async (c) =>
    c.json(await forecastUploadUrl(c.get("deps"), c.get("actor"), c.req.valid("json")), 200, { "Cache-Control": "no-store" }),
  );
