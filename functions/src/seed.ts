// First-start seeding of the local installation: the demo company and its user, and for `npm start`
// their last reporting year.
import type { Deps } from "./domain/context";
import { createCompany, createUser } from "./domain/company/users";
import { seedDemoYear } from "./demo-year";

export const DEMO_COMPANY = {
  name: "Демо-компания",
  email: "info@demo-ugol.example",
  // 13 digits whose last is the ОГРН check digit ((first 12 mod 11) mod 10).
  ogrn: "1244205001237",
  okved: "05.10",
  region: "Кемеровская область — Кузбасс",
  postal_address: "650000, Кемеровская область — Кузбасс, г. Кемерово, ул. Шахтерская, д. 1",
};

export interface DemoLogin {
  email: string;
  password: string;
  /** Set: the first start makes an empty company of this name for the user instead of the demo
   *  company with its year (`LOCAL_COMPANY`, README «Starting with your own company»). */
  company?: string;
}

export function demoLoginFromEnv(env: NodeJS.ProcessEnv = process.env): DemoLogin {
  const company = env.LOCAL_COMPANY?.trim();
  return {
    email: env.LOCAL_DEMO_EMAIL || "demo@example.com",
    password: env.LOCAL_DEMO_PASSWORD || "demo-password",
    ...(company ? { company } : {}),
  };
}

/** Idempotent: creates the demo company and user only when they are missing, and with `year` the
 *  company's last reporting year along with them (a user's later edits are never overwritten).
 *  With `login.company` the user's company is an empty one of that name: no requisites, no year. */
export async function seedDemo(deps: Deps, login: DemoLogin, options: { year?: boolean } = {}): Promise<{ created: boolean }> {
  if (await deps.repos.users.findByEmail(login.email)) return { created: false };
  const own = login.company;
  const company = own
    ? ((await deps.repos.companies.findByName(own)) ?? (await createCompany(deps, { name: own })))
    : ((await deps.repos.companies.findByName(DEMO_COMPANY.name)) ?? (await createCompany(deps, DEMO_COMPANY)));
  const user = await createUser(deps, {
    companyId: company.id,
    email: login.email,
    password: login.password,
    first_name: "Иван",
    last_name: "Петров",
  });
  if (options.year && !own) await seedDemoYear(deps, user);
  return { created: true };
}
