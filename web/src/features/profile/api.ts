import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import type { CompanyStatistics, Role } from "../../../../functions/src/ports";

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

export const meKey = ["users", "me"] as const;
export const statisticsKey = ["users", "statistics"] as const;

/** The signed-in user and their company; the projects screen needs company.id too. */
export function useMe() {
  return useQuery({
    queryKey: meKey,
    queryFn: () => api.get<Me>("v1/users/get_me/"),
    staleTime: 5 * 60_000,
  });
}

export function useStatistics() {
  return useQuery({
    queryKey: statisticsKey,
    queryFn: () => api.get<Statistics>("v1/users/statistics/"),
  });
}
