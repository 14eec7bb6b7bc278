// v1/users/get_me/ and v1/users/statistics/ (docs/api.md), declared. Served by http/users.ts.
import { signedInUserSchema, statisticsSchema } from "../schemas/answers";
import { declareRoute, json } from "./declare";

export const getMeRoute = declareRoute(
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

export const statisticsRoute = declareRoute(
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

/** Every route of v1/users/ above, in the order http/users.ts serves them. */
export const USER_ROUTES = [getMeRoute, statisticsRoute] as const;
