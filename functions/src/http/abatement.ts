// v1/abatement/: the stateless evaluation (domain/abatement/evaluate.ts). Declared in
// contract/routes/abatement.ts.
import type { AbatementRequest } from "@core/abatement";
import { abatementEvaluateRoute } from "../contract/routes/abatement";
import { evaluateAbatementRequest } from "../domain/abatement/evaluate";
import { routeApp } from "./openapi-routes";

export const abatementRoutes = routeApp().openapi(abatementEvaluateRoute, async (c) =>
  c.json(await evaluateAbatementRequest(c.get("deps"), c.req.valid("json") as AbatementRequest), 200),
);
