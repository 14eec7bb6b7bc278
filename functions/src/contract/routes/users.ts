// v1/users/get_me/ and v1/users/statistics/ (docs/api.md), declared. Served by http/users.ts.
import * as z from "zod";
import { companySchema, requisitesChangeSchema, signedInUserSchema, statisticsSchema, tokensSchema } from "../schemas/answers";
import { pageParams } from "../schemas/common";
import { ownCompanyPatchSchema } from "../schemas/company";
import { declareRoute, json, jsonBody, listOf, userAccess } from "./declare";
import { fieldMessage } from "../field-errors";

const own = userAccess("users", { scope: "own" });

export const getMeRoute = declareRoute(
  own({
    operationId: "getMe",
    summary: "The signed-in user and their company",
    errors: [],
  }),
  { method: "get", path: "/get_me", responses: { 200: json(signedInUserSchema, "User with company requisites") } },
);

export const statisticsRoute = declareRoute(
  own({
    operationId: "statistics",
    summary: "Project and calculation counts and total t CO2-eq. of the caller's company",
    description:
      "The company's snapshot, refreshed by the table's stream handler after each change of its projects or calculations (about a second behind in AWS).",
    errors: [],
  }),
  { method: "get", path: "/statistics", responses: { 200: json(statisticsSchema, "The company's figures") } },
);

/** The company's own requisites, based on the version shown (a stale one is 409). */
export const ownCompanyBody = ownCompanyPatchSchema.extend({
  version: z.optional(z.number("version: ожидается целое число").int("version: ожидается целое число")),
});

export const patchOwnCompanyRoute = declareRoute(
  own({
    operationId: "patchOwnCompany",
    summary: "Edit the caller's company's name, e-mail, region, ИНН, КПП, ОГРН, ОКВЭД, postal address and person responsible",
    description:
      "The company is the session's, never one named in the body. Every change is written to the admin change log with the company before and after, and to the company's own (GET company/audit/).",
    errors: [400, 404, 409],
  }),
  {
    method: "patch",
    path: "/company",
    request: { body: jsonBody(ownCompanyBody) },
    responses: { 200: json(companySchema, "The company, version + 1") },
  },
);

export const requisitesAuditQuery = z.object(pageParams());

export const requisitesAuditRoute = declareRoute(
  own({
    operationId: "companyAudit",
    summary: "Who changed the caller's company's requisites and facilities, from what to what, newest first",
    description:
      "For role reviewer (and admin); staff get 403. Only the session's company's changes: its requisites (Профиль) and its facilities' name, type, licence, address.",
    errors: [400, 403],
  }),
  {
    method: "get",
    path: "/company/audit",
    request: { query: requisitesAuditQuery },
    responses: { 200: json(listOf(requisitesChangeSchema), "A page of the changes") },
  },
);

export const PERSON_TEXT_MAX = 150;
const personText = (field: string) =>
  z.optional(
    z
      .string(fieldMessage(field, "ожидается строка"))
      .trim()
      .max(PERSON_TEXT_MAX, fieldMessage(field, `не длиннее ${PERSON_TEXT_MAX} символов`)),
  );

/** One's own name and position (Профиль). */
export const ownProfileBody = z.object({
  first_name: personText("first_name"),
  last_name: personText("last_name"),
  position: personText("position"),
});

export const patchMeRoute = declareRoute(
  own({
    operationId: "patchMe",
    summary: "Change one's own first name, last name and position",
    description:
      "The user is the session's. Comments, the review trail and the passport name each person by the name they have now, earlier steps included.",
    errors: [400],
  }),
  {
    method: "patch",
    path: "/me",
    request: { body: jsonBody(ownProfileBody) },
    responses: { 200: json(signedInUserSchema, "The user as get_me answers it") },
  },
);

const passwordText = (field: string) =>
  z.string(fieldMessage(field, "укажите пароль")).max(1024, fieldMessage(field, "слишком длинный пароль"));

export const ownPasswordBody = z.object({
  current_password: passwordText("current_password"),
  new_password: passwordText("new_password"),
});

export const changePasswordRoute = declareRoute(
  own({
    operationId: "changeOwnPassword",
    summary: "Change one's own password, the current one given: every other session ends",
    description:
      "A wrong current password is 400 (`current_password: …`) and counts as a failed sign-in attempt of the e-mail from this address (429 over the budget). Every session of the user ends, tokens of this one included; the answer is a new session's tokens for the caller.",
    errors: [400, 429],
  }),
  {
    method: "post",
    path: "/me/password",
    request: { body: jsonBody(ownPasswordBody) },
    responses: { 200: json(tokensSchema.required(), "The caller's new session") },
  },
);

/** Every route of v1/users/ above, in the order http/users.ts serves them. */
export const USER_ROUTES = [
  getMeRoute,
  statisticsRoute,
  patchOwnCompanyRoute,
  requisitesAuditRoute,
  patchMeRoute,
  changePasswordRoute,
] as const;
