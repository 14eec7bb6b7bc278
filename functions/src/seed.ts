// First-start seeding of the local installation: in a new data folder, the demo company and its
// user (and for `npm start` their last reporting year), or the company LOCAL_COMPANY names and its
// first user. A folder that holds a company already is its owner's: nothing is added to it.
import { randomBytes } from "node:crypto";
import { networkInterfaces } from "node:os";
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
  time_zone: "Asia/Novokuznetsk",
};

/** The demo user's name: the one the demo year's requisites name as the person responsible. */
const DEMO_PERSON = { first_name: "Иван", last_name: "Петров" };

export interface DemoLogin {
  email: string;
  /** Unset with `company`: the first start makes one up and prints it once. */
  password?: string;
  /** Set: the first start makes an empty company of this name for the user instead of the demo
   *  company with its year (`LOCAL_COMPANY`, README «Starting with your own company»). */
  company?: string;
  first_name?: string;
  last_name?: string;
}

export function demoLoginFromEnv(env: NodeJS.ProcessEnv = process.env): DemoLogin {
  const company = env.LOCAL_COMPANY?.trim();
  const password = env.LOCAL_DEMO_PASSWORD || (company ? undefined : "demo-password");
  const first = env.LOCAL_FIRST_NAME?.trim();
  const last = env.LOCAL_LAST_NAME?.trim();
  return {
    email: env.LOCAL_DEMO_EMAIL || "demo@example.com",
    ...(password ? { password } : {}),
    ...(company ? { company } : {}),
    ...(first ? { first_name: first } : {}),
    ...(last ? { last_name: last } : {}),
  };
}

/** What a first start made: the company, its user and the password, which is printed this once. */
export interface FirstStart {
  company: string;
  email: string;
  password: string;
}

/** Only in a data folder that holds no company: the demo company and its user (with `year` their
 *  last reporting year), or with `login.company` an empty company of that name and its first user
 *  (no requisites, no year). A folder that holds a company is left as it is, whatever `login`
 *  says: a restart never adds a company or a user. */
export async function seedFirstStart(
  deps: Deps,
  login: DemoLogin,
  options: { year?: boolean; beforeYear?: () => Promise<void> } = {},
): Promise<FirstStart | undefined> {
  if ((await deps.repos.companies.list()).length > 0) return undefined;
  const own = login.company;
  // Made up here (not a known default) when the owner named the company but no password.
  const password = login.password ?? randomBytes(12).toString("base64url");
  const company = await createCompany(deps, own ? { name: own } : DEMO_COMPANY);
  const user = await createUser(
    deps,
    {
      companyId: company.id,
      email: login.email,
      password,
      first_name: login.first_name ?? (own ? undefined : DEMO_PERSON.first_name),
      last_name: login.last_name ?? (own ? undefined : DEMO_PERSON.last_name),
    },
    "allowed",
  );
  if (options.year && !own) {
    // The caller's last word before the year's minutes of writing (a start it refuses ends here).
    await options.beforeYear?.();
    await seedDemoYear(deps, user);
  }
  return { company: company.name, email: user.email, password };
}

/** Each company of the installation with its users' e-mails, for the start banner. */
export async function usersByCompany(deps: Deps): Promise<Array<{ company: string; emails: string[] }>> {
  const companies = await deps.repos.companies.list();
  const listed = await Promise.all(
    companies.map(async (c) => ({ company: c.name, emails: (await deps.repos.users.listByCompany(c.id)).map((u) => u.email).sort() })),
  );
  return listed.sort((a, b) => a.company.localeCompare(b.company, "ru"));
}

/**
 * The addresses a user reaches the server at: its URL, or, listening on every
 * interface (HOST=0.0.0.0 or ::), the URL at each of the machine's external IPv4 addresses, then this
 * machine's own (the banner printed «http://127.0.0.1:…» alone, which no other machine reaches).
 */
export function reachableUrls(
  url: string,
  host: string | undefined,
  interfaces: NodeJS.Dict<{ address: string; family: string | number; internal: boolean }[]> = networkInterfaces(),
): string[] {
  if (host !== "0.0.0.0" && host !== "::") return [url];
  const at = new URL(url);
  const external = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((i) => !i.internal && (i.family === "IPv4" || i.family === 4))
    .map((i) => `${at.protocol}//${i.address}:${at.port}`);
  return [...new Set(external), url];
}

/** The lines `npm start` prints once the server is up: the URL (each, where it listens on every
 *  interface), the data folder and who may sign in; a password only when this start has just created it. */
export function startBanner(
  url: string | readonly string[],
  dataDir: string,
  login: DemoLogin,
  firstStart: FirstStart | undefined,
  users: Array<{ company: string; emails: string[] }>,
): string[] {
  const urls = typeof url === "string" ? [url] : url;
  const lines = [
    "",
    "Цифровая платформа расчета неорганизованных выбросов",
    ...urls.map(
      (u, i) => `  ${i === 0 ? "URL:   " : "       "} ${u}${urls.length > 1 && u.includes("//127.0.0.1:") ? " (с этого компьютера)" : ""}`,
    ),
    `  Данные: ${dataDir}`,
  ];
  if (!firstStart && login.company && !users.some((u) => u.company === login.company)) {
    lines.push(`  LOCAL_COMPANY не применен: папка данных уже занята, компания создается только в новой папке`);
  }
  if (firstStart) {
    lines.push(
      `  Создана компания «${firstStart.company}» и ее пользователь:`,
      `  Логин:  ${firstStart.email}`,
      `  Пароль: ${firstStart.password}`,
      "  (пароль показан один раз: смените его в профиле после входа)",
    );
  } else if (users.length === 0) {
    lines.push("  Пользователей нет: npm run admin -- create-user --company … --new-company --email … --password …");
  } else {
    lines.push("  Пользователи:");
    for (const { company, emails } of users) lines.push(`    ${company}: ${emails.length > 0 ? emails.join(", ") : "—"}`);
  }
  return [...lines, ""];
}
