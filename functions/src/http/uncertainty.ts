// v1/projects/{id}/uncertainty/: the project's uncertainty model, which the browser's uncertainty
// core turns into the total ± interval and the key categories (methodology-uncertainty.md).
import { projectUncertaintyModel } from "../domain/uncertainty";
import { uncertaintyModelSchema } from "../schemas/answers";
import { routeApp } from "./openapi-routes";
import { declareRoute, json } from "../routes/declare";
import { projectIdParams, projectScoped } from "../routes/projects";

const uncertaintyRoute = declareRoute(
  projectScoped({
    operationId: "projectUncertainty",
    summary: "The project's uncertainty model: each active emission calculation with its CO2-eq result and uncertain inputs",
    description:
      "co2e = Π(common) × Σ terms; inputs with the same `share` are one Monte Carlo draw (a dictionary entry shared by calculations). " +
      "The web app computes Approach 1, key categories and Monte Carlo from it with the uncertainty core.",
    errors: [404],
  }),
  {
    method: "get",
    path: "/{id}/uncertainty",
    request: { params: projectIdParams },
    responses: { 200: json(uncertaintyModelSchema, "The model") },
  },
);

export const uncertaintyRoutes = routeApp().openapi(uncertaintyRoute, async (c) =>
  c.json(await projectUncertaintyModel(c.get("deps"), c.get("actor"), c.req.valid("param").id), 200),
);
