// v1/projects/{id}/uncertainty/, declared: the project's uncertainty model, which the browser's
// uncertainty core turns into the total ± interval and the key categories
// (docs/methodology.md, Uncertainty). Served by http/uncertainty.ts.
import { uncertaintyModelSchema } from "../schemas/answers";
import { json, route } from "./declare";
import { projectIdParams, projectScoped } from "./projects";

export const uncertaintyRoute = route(
  projectScoped(
    "projectUncertainty",
    "The project's uncertainty model: each active emission calculation with its CO2-eq result and uncertain inputs",
    [404],
    "co2e = Π(common) × Σ terms; inputs with the same `share` are one Monte Carlo draw (a dictionary entry shared by calculations). " +
      "The web app computes Approach 1, key categories and Monte Carlo from it with the uncertainty core.",
  ),
  { get: "/{id}/uncertainty", cost: "light", params: projectIdParams, 200: json(uncertaintyModelSchema, "The model") },
);

/** The route of v1/projects/{id}/uncertainty/, as http/uncertainty.ts serves it. */
export const UNCERTAINTY_ROUTES = [uncertaintyRoute] as const;
