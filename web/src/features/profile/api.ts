import { useQuery } from "@tanstack/react-query";
import { typedClient } from "../../api/client";
import type { UserRoutes } from "@server/contracts";
import type { CompanyStatistics, Role } from "@server/ports";

export interface Company {
  id: string;
  name: string | null;
  email: string | null;
  ogrn: string | null;
  inn?: string | null;
  kpp?: string | null;
  okved: string | null;
  region: string | null;
  postal_address: string | null;
}

export interface Me {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  /** staff: a company member; admin: a platform operator (the /admin menu item). */
  role?: Role;
  company: Company;
}

/** The company's snapshot, refreshed by the server after each change of its projects or
 *  calculations (a moment later, not with the change itself). */
export type Statistics = CompanyStatistics;

/** v1/users/, typed from the server's route declarations (functions/src/routes/users.ts). */
const users = typedClient<UserRoutes>("v1/users");

export const meKey = ["users", "me"] as const;
export const statisticsKey = ["users", "statistics"] as const;

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
