// v1/projects/{id}/uncertainty/: the project's uncertainty model, which the browser's uncertainty
// core turns into the total ± interval and the key categories (docs/methodology.md, Uncertainty).
// The declaration is in routes/uncertainty.ts.
import { projectUncertaintyModel } from "../domain/calculations/uncertainty";
import { routeApp } from "./openapi-routes";
import { uncertaintyRoute } from "../contract/routes/uncertainty";

export const uncertaintyRoutes = routeApp().openapi(uncertaintyRoute, async (c) =>
  c.json(await projectUncertaintyModel(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
);
