import { useQuery } from "@tanstack/react-query";
import { pageQuery, typedClient } from "./client";
import type { CompanyStatistics, OwnCompanyPatchInput, RequisitesChange, SignedInUser } from "@server/contract";

/** The signed-in user and their company (admin: a platform operator, the /admin menu item). */
export type Me = SignedInUser;

/** The company's snapshot, refreshed by the server after each change of its projects or
 *  calculations (a moment later, not with the change itself). */
export type Statistics = CompanyStatistics;

/** users/, typed from the server's route declarations (functions/src/contract/routes/users.ts). */
const users = typedClient("users");

export const meKey = ["users", "me"] as const;
export const statisticsKey = ["users", "statistics"] as const;
/** Every page of the company's requisites history: refetched after the requisites or a facility change. */
export const requisitesAuditKey = ["users", "company", "audit"] as const;

/** The signed-in user and their company; the projects screen needs company.id too. */
export function useMe() {
  return useQuery({
    queryKey: meKey,
    queryFn: (): Promise<Me> => users((c) => c.get_me.$get()),
    staleTime: 5 * 60_000,
  });
}

export function useStatistics() {
  return useQuery({
    queryKey: statisticsKey,
    queryFn: (): Promise<Statistics> => users((c) => c.statistics.$get()),
  });
}

/** The requisites the company's own staff keep (PATCH users/company/): the contract's fields,
 *  each as the form holds it, text. */
export type OwnCompanyBody = Record<keyof OwnCompanyPatchInput, string>;

/** PATCH users/company/: the session's company, based on the version shown (a stale one is 409). */
export function patchOwnCompany(body: OwnCompanyBody, version: number) {
  return users((c) => c.company.$patch({ json: { ...body, version } }));
}

export type { RequisitesChange };

/** GET users/company/audit/: a page of the company's changes of its requisites and facilities,
 *  newest first (role reviewer or admin; staff are not asked). */
export function useRequisitesAudit(page: number, pageSize: number, enabled: boolean) {
  return useQuery({
    queryKey: [...requisitesAuditKey, page, pageSize],
    queryFn: () => users((c) => c.company.audit.$get({ query: pageQuery(page, pageSize) })),
    enabled,
  });
}

/** One's own name and position (PATCH users/me/). */
export type OwnProfileBody = { first_name: string; last_name: string; position: string };

export function patchMe(body: OwnProfileBody): Promise<Me> {
  return users((c) => c.me.$patch({ json: body }));
}

/** POST users/me/password/: the current password checked; every other session ends and the
 *  answer is this browser's new session. */
export function changeOwnPassword(body: { current_password: string; new_password: string }) {
  return users((c) => c.me.password.$post({ json: body }));
}
