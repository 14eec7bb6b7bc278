// v1/users/get_me/ and v1/users/statistics/ (docs/api.md), declared. Served by http/users.ts.
import * as z from "zod";
import { companySchema, requisitesChangeSchema, signedInUserSchema, statisticsSchema, tokensSchema } from "../schemas/answers";
import { pageParams } from "../schemas/common";
import { ownCompanyPatchSchema } from "../schemas/company";
import { json, listOf, route, userAccess } from "./declare";
import { LIMITS } from "../schemas/limits";

const own = userAccess("users", { scope: "own" });

export const getMeRoute = route(own("getMe", "The signed-in user and their company", []), {
  get: "/get_me",
  cost: "light",
  200: json(signedInUserSchema, "User with company requisites"),
});

export const statisticsRoute = route(
  own(
    "statistics",
    "Project and calculation counts and total t CO2-eq. of the caller's company",
    [],
    "The company's snapshot, refreshed by the table's stream handler after each change of its projects or calculations (about a second behind in AWS).",
  ),
  { get: "/statistics", cost: "light", 200: json(statisticsSchema, "The company's figures") },
);

/** The company's own requisites, based on the version shown (a stale one is 409). */
export const ownCompanyBody = ownCompanyPatchSchema.extend({
  version: z.optional(z.number("ожидается целое число").int("ожидается целое число")),
});

export const patchOwnCompanyRoute = route(
  own(
    "patchOwnCompany",
    "Edit the caller's company's name, e-mail, region, ИНН, КПП, ОГРН, ОКВЭД, postal address and person responsible",
    [400, 404, 409],
    "The company is the session's, never one named in the body. Every change is written to the admin change log with the company before and after, and to the company's own (GET company/audit/).",
  ),
  { patch: "/company", cost: "light", body: ownCompanyBody, 200: json(companySchema, "The company, version + 1") },
);

export const requisitesAuditQuery = z.object(pageParams());

export const requisitesAuditRoute = route(
  own(
    "companyAudit",
    "Who changed the caller's company's requisites and facilities, from what to what, newest first",
    [400, 403],
    "For role reviewer (and admin); staff get 403. Only the session's company's changes: its requisites (Профиль) and its facilities' name, type, licence, address.",
  ),
  { get: "/company/audit", cost: "light", query: requisitesAuditQuery, 200: json(listOf(requisitesChangeSchema), "A page of the changes") },
);

export const PERSON_TEXT_MAX = LIMITS.name.person;
const personText = () => z.optional(z.string("ожидается строка").trim().max(PERSON_TEXT_MAX, `не длиннее ${PERSON_TEXT_MAX} символов`));

/** One's own name and position (Профиль). */
export const ownProfileBody = z.object({
  first_name: personText(),
  last_name: personText(),
  position: personText(),
});

export const patchMeRoute = route(
  own(
    "patchMe",
    "Change one's own first name, last name and position",
    [400],
    "The user is the session's. Comments, the review trail and the passport name each person by the name they have now, earlier steps included.",
  ),
  { patch: "/me", cost: "light", body: ownProfileBody, 200: json(signedInUserSchema, "The user as get_me answers it") },
);

const passwordText = () => z.string("укажите пароль").max(LIMITS.password.max, "слишком длинный пароль");

export const ownPasswordBody = z.object({
  current_password: passwordText(),
  new_password: passwordText(),
});

export const changePasswordRoute = route(
  own(
    "changeOwnPassword",
    "Change one's own password, the current one given: every other session ends",
    [400, 409, 429],
    "A wrong current password is 400 (`current_password: …`) and counts as a failed sign-in attempt of the e-mail from this address (429 over the budget). Every session of the user ends, tokens of this one included; the answer is a new session's tokens for the caller. Of changes sent at once (from one read of the user) one wins; the others are 409 and change nothing.",
  ),
  { post: "/me/password", cost: "light", body: ownPasswordBody, 200: json(tokensSchema.required(), "The caller's new session") },
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
