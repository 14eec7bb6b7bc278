// Upload previews and saves on the local server as `npm start` runs it (worker threads, heavy-work
// slots): two companies' staff, a forecast file with refused rows, a form as the dialog sends it.
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import type { Project } from "@server/contract/schemas/project";
import { accessToken } from "./server";
import { createProject, longwallRows } from "./large-forecasts";

export interface PreviewServer {
  server: LocalServer;
  staff: { id: string; company: string; token: string };
  otherToken: string;
  project: Project;
}

export async function startPreviewServer(): Promise<PreviewServer> {
  const server = await startLocalServer({ port: 0 });
  const user = async (companyName: string, email: string) => {
    const company = (await createCompany(server.deps, { name: companyName })).id;
    const created = await createUser(server.deps, {
      companyId: company,
      email,
      password: "staff-password",
      first_name: "Иван",
      last_name: "Петров",
      role: "staff",
    });
    return { id: created.id, company, token: await accessToken(server.url, { email, password: "staff-password" }) };
  };
  const staff = await user("Шахта Предпросмотр", "staff@example.com");
  const other = await user("Другая организация", "other@example.com");
  const project = await createProject(server, staff.company, staff.id, "Лава предпросмотра");
  return { server, staff, otherToken: other.token, project };
}

/** A forecast CSV of `rows` rows whose every `step`-th row has a methane concentration of 300 %
 *  (refused by the save's check, not by the reader): `rows` 50 000 are about 2 MB. */
export function forecastCsv(rows: number, step = Number.POSITIVE_INFINITY): Uint8Array {
  const lines = longwallRows(rows).map((r, i) =>
    [r.id, r.x1, r.x2, (i + 1) % step === 0 ? 300 : r.x7, r.x8, r.x12, r.x13, r.x15].join(","),
  );
  return new TextEncoder().encode(["id,x1,x2,x7,x8,x12,x13,x15", ...lines].join("\n"));
}

/** A forecast upload (`?dry_run=1` for its preview), multipart as the dialog sends it. */
export function sendForecast(url: string, token: string, project: Project, file: { name: string; bytes: Uint8Array }, query = "") {
  const form = new FormData();
  form.set("name", "Прогноз из файла");
  form.set("project", project.id);
  form.set("method", "xgboost");
  form.set("file_data", new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.name);
  return fetch(`${url}/api/v1/regres_methane/${query}`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
}
