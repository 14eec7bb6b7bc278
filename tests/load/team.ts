// The companies and signed-in users a load or bench offers its requests as, made on a running local
// server: the platform operator by the admin command beside it (on its data folder), then the
// companies, their users and a project of each user's own through v1/admin/ and the API.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

export interface Session {
  email: string;
  token: string;
  project: string;
  company: string;
}

const PASSWORD = "load-password-2026";

/** The server at `base` (its data folder `dataDir`): JSON calls, sign-in and teams of new companies. */
export function teams(base: string, dataDir: string) {
  let companies = 0;
  /** The platform operator's token, which makes the companies and their users (v1/admin/). */
  let operator: string | undefined;

  async function json<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { "Content-Type": "application/json", ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
    });
    if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async function signIn(email: string): Promise<string> {
    const { access } = await json<{ access: string }>("/api/token/", {
      method: "POST",
      body: JSON.stringify({ email, password: PASSWORD, guardant_code: "" }),
    });
    return access;
  }

  /** A new company with one user, made by the admin command beside the running server. */
  async function ownCompany(role?: string): Promise<string> {
    companies += 1;
    const email = `load${companies}-${Date.now()}@example.com`;
    await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "functions/src/admin/cli.ts",
        "create-user",
        "--company",
        `Нагрузка ${companies} ${Date.now()}`,
        "--new-company",
        "--email",
        email,
        "--password",
        PASSWORD,
        ...(role ? ["--role", role] : []),
      ],
      { env: { ...process.env, DATA_DIR: dataDir } },
    );
    return email;
  }

  /** `users` signed-in users of `companyCount` new, empty companies (as even as may be), each with a
   *  project of their own: made by the platform operator through v1/admin/. */
  async function team(users: number, companyCount: number): Promise<Session[]> {
    operator ??= await signIn(await ownCompany("admin"));
    const made: Session[] = [];
    const ids: string[] = [];
    for (let c = 0; c < companyCount; c++) {
      companies += 1;
      const company = await json<{ id: string }>("/api/v1/admin/companies/", {
        method: "POST",
        token: operator,
        body: JSON.stringify({ name: `Нагрузка ${companies} ${Date.now()}` }),
      });
      ids.push(company.id);
    }
    for (let u = 0; u < users; u++) {
      const company = ids[u % companyCount];
      const email = `staff${u}-${company}@load.example`;
      await json(`/api/v1/admin/companies/${company}/users/`, {
        method: "POST",
        token: operator,
        body: JSON.stringify({ email, password: PASSWORD, first_name: "Нагрузка", last_name: `Сотрудник ${u + 1}` }),
      });
      const token = await signIn(email);
      const project = await json<{ id: string }>("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        body: JSON.stringify({ name: `Нагрузка ${u + 1}`, start_date: "2024-01-01", end_date: "2024-12-31" }),
      });
      made.push({ email, token, project: project.id, company });
    }
    return made;
  }

  return { json, signIn, team };
}
