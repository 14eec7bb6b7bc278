// The finding an earlier round as a figure: a project of large forecasts (100 000 rows each) exported in
// detail from the local server as `npm start` runs it (rendered in a worker thread, streamed), while
// a user of another company asks get_me every 100 ms. Prints the export's time and size, the server
// process's peak RSS above its start, and the other user's get_me latency meanwhile (the bound: p50
// under 200 ms); then 40 parallel uploads of 100 000 rows from one user, the same figures.
// FORECASTS=5 reproduces the largest detailed export the bounds allow (500 000 rows).
import { createCompany, createUser } from "@server/domain/company/users";
import { startLocalServer } from "@server/local/server";
import {
  addForecasts,
  createProject,
  downloadWhileProbing,
  parallelUploads,
  storeRows,
  longwallCsv,
  whileProbing,
} from "../support/large-forecasts";

const ROWS = 100_000;
const FORECASTS = Number(process.env.FORECASTS || 2);

async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/token/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password, guardant_code: "" }),
  });
  return ((await res.json()) as { access: string }).access;
}

export async function run(): Promise<void> {
  const server = await startLocalServer({ port: 0 });
  try {
    const company = await createCompany(server.deps, { name: "Шахта нагрузочная" });
    const staff = await createUser(server.deps, {
      companyId: company.id,
      email: "bench@example.com",
      password: "bench-password",
      first_name: "Иван",
      last_name: "Петров",
      role: "staff",
    });
    const other = await createCompany(server.deps, { name: "Другая организация" });
    await createUser(server.deps, {
      companyId: other.id,
      email: "other@example.com",
      password: "other-password",
      first_name: "Олег",
      last_name: "Сидоров",
      role: "staff",
    });
    const project = await createProject(server, company.id, staff.id, "Прогнозы лав");
    await addForecasts(server, project, staff.email, FORECASTS, ROWS, await storeRows(server, company.id, ROWS));
    const token = await signIn(server.url, "bench@example.com", "bench-password");
    const otherToken = await signIn(server.url, "other@example.com", "other-password");
    for (const format of ["xlsx"] as const) {
      const f = await downloadWhileProbing(
        server.url,
        `/api/v1/projects/${project.id}/export_to_${format}/?detail=true`,
        token,
        otherToken,
      );
      console.log(
        `detailed ${format} of ${FORECASTS} × ${ROWS} forecast rows: ${f.status}, ${f.seconds.toFixed(1)} s, ${(f.bytes / 1024 / 1024).toFixed(1)} MB,` +
          ` peak RSS +${f.rssGrowthMb.toFixed(0)} MB; another company's get_me p50 ${f.p50.toFixed(0)} ms, p95 ${f.p95.toFixed(0)} ms (${f.calls} calls)`,
      );
    }
    // The other finding: 40 parallel uploads of 100 000 rows from one user (sent from a thread of
    // their own); the in-flight bound takes two, the forecasts are read and predicted in the
    // worker threads.
    const target = await createProject(server, company.id, staff.id, "Сорок загрузок");
    const csv = longwallCsv(ROWS);
    const u = await whileProbing(server.url, otherToken, () => parallelUploads(server.url, token, target.id, csv, 40));
    console.log(
      `40 parallel uploads of ${ROWS} rows: ${u.value.filter((s) => s === 201).length} × 201, ${u.value.filter((s) => s === 429).length} × 429, ${u.seconds.toFixed(1)} s,` +
        ` peak RSS +${u.rssGrowthMb.toFixed(0)} MB (request thread +${u.heapGrowthMb.toFixed(0)} MB); another company's get_me p50 ${u.p50.toFixed(0)} ms, p95 ${u.p95.toFixed(0)} ms (${u.calls} calls)`,
    );
  } finally {
    await server.close();
  }
}
