// A company whose PDF report passport is made as a job on the local host (JOB_PASSPORT_LINES.pdf
// calculations and more), with a signed-in staff user, for the export-job tests.
import { expect } from "vitest";
import type { LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { JOB_PASSPORT_LINES } from "@server/domain/heavy-work";
import { copyCalculation } from "./large-inventory";
import { accessToken } from "./server";

export interface JobCompany {
  company: string;
  tokens: string[];
}

export interface Job {
  job: string;
  state: string;
  progress: number;
  status_url?: string;
  file_url?: string;
  detail?: string;
}

/** `users` staff users of a new company named `name`, and a year 2025 of `lines` calculations. */
export async function jobCompany(
  server: LocalServer,
  name: string,
  users = 1,
  lines: number = JOB_PASSPORT_LINES.pdf,
): Promise<JobCompany> {
  const company = (await createCompany(server.deps, { name })).id;
  const tokens: string[] = [];
  for (let i = 0; i < users; i++) {
    const email = `staff${i}-${company.slice(-6)}@example.com`;
    await createUser(server.deps, { companyId: company, email, password: "staff-password", role: "staff" });
    tokens.push(await accessToken(server.url, { email, password: "staff-password" }));
  }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}/api/${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens[0]}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { id: string };
  };
  const project = await post("v1/projects/create_project/", { name: "Северная 2025", start_date: "2025-01-01", end_date: "2025-12-31" });
  const first = await post("v1/underground/", {
    name: "Измерения",
    project: project.id,
    volume: 40_000,
    p_co2: 1.8393,
    p_ch4: 0.668,
    ef_co2: 1,
    ef_ch4: 60,
  });
  await copyCalculation(server.deps, company, "underground", first.id, lines - 1);
  await server.settled();
  return { company, tokens };
}

export const getAs = (server: LocalServer, token: string, path: string) =>
  fetch(`${server.url}/api/${path}`, { headers: { Authorization: `Bearer ${token}` } });

/** Polls the job until it is done or failed. */
export async function finished(server: LocalServer, token: string, job: Job, timeoutMs = 120_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await (await getAs(server, token, job.status_url ?? `v1/export_jobs/${job.job}/`)).json()) as Job;
    if (state.state === "done" || state.state === "failed" || Date.now() > deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
