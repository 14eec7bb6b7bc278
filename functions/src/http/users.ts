// GET v1/users/get_me/ and v1/users/statistics/ (docs/api.md) served: the declarations are in routes/users.ts.
import { getMe } from "../domain/users";
import { companyStatistics } from "../domain/statistics";
import { routeApp } from "./openapi-routes";
import { getMeRoute, statisticsRoute } from "../contract/routes/users";

export const userRoutes = routeApp()
  .openapi(getMeRoute, async (c) => c.json(await getMe(c.get("deps"), c.get("actor")), 200))
  .openapi(statisticsRoute, async (c) => c.json(await companyStatistics(c.get("deps"), c.get("actor")), 200));
