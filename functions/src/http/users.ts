// GET v1/users/get_me/ and v1/users/statistics/ (SPEC 7).
import { getMe } from "../domain/users";
import { companyStatistics } from "../domain/statistics";
import { signedInUserSchema, statisticsSchema } from "../schemas/answers";
import { routeApp } from "./openapi-routes";
import { declareRoute, json } from "../routes/declare";

const getMeRoute = declareRoute(
  {
    operationId: "getMe",
    summary: "The signed-in user and their company",
    tag: "users",
    auth: "user",
    isolation: { scope: "own" },
    errors: [],
  },
  { method: "get", path: "/get_me", responses: { 200: json(signedInUserSchema, "User with company requisites") } },
);

const statisticsRoute = declareRoute(
  {
    operationId: "statistics",
    summary: "Project and calculation counts and total t CO2-eq. of the caller's company",
    description:
      "The company's snapshot, refreshed by the table's stream handler after each change of its projects or calculations (about a second behind in AWS).",
    tag: "users",
    auth: "user",
    isolation: { scope: "own" },
    errors: [],
  },
  { method: "get", path: "/statistics", responses: { 200: json(statisticsSchema, "The company's figures") } },
);

export const userRoutes = routeApp()
  .openapi(getMeRoute, async (c) => c.json(await getMe(c.get("deps"), c.get("actor")), 200))
  .openapi(statisticsRoute, async (c) => c.json(await companyStatistics(c.get("deps"), c.get("actor")), 200));
