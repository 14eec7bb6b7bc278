// A company's model trained on its history on the local host: a job in a worker thread, as the job
// function trains it in AWS (tests/infra/training-jobs.test.ts). The call answers 202 at once with the
// job's signed id; its state goes from queued through running to done, naming the stored model, which
// the company's list then has (and uses, when asked); another company's user gets 404 for the job.
// A history the trainer refuses fails the job with its Russian message, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { accessToken } from "../support/server";
import { HEAVY_PER_USER } from "@server/domain/heavy-work";
import { HORIZONS, horizonLabel } from "@core/gbdt/horizon";

let server: LocalServer;
let token: string;
let otherToken: string;
let projectId: string;

const HEADER =
  "Время;Расход воздуха в исходящей струе лавы (суточные замеры), м³/мин;Концентрация метана в каптируемой смеси, %;Концентрация CH4 в исходящей струе лавы, факт, %";

function history(rows: number, constant = false): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const minutes = i * 10;
    const day = 1 + Math.floor(minutes / 1440);
    const time = `${String(day).padStart(2, "0")}.01.2025 ${String(Math.floor((minutes % 1440) / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    const air = 1200 + ((i * 37) % 400);
    const y = constant ? 0.5 : (0.5 * 1400) / air + 0.002 * ((i * 7) % 5);
    lines.push(`${time};${air};${20 + ((i * 13) % 30)};${y.toFixed(4).replace(".", ",")}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The same longwall with every column a forecast reads (the ones the training had not, steady). */
function forecastHistory(rows: number): string {
  const [header, ...lines] = history(rows).trimEnd().split("\n");
  const [time, measuredAir, drained, y] = header.split(";");
  const more = [
    "Расход воздуха в исходящей струе лавы (телеметрия), м³/мин",
    "Расход смеси, извлекаемой установкой, м³/мин",
    "Средняя концентрация CH4 в исходящей струе шахты, %",
    "Расход воздуха в исходящей струе шахты, м³/мин",
    "Расход метана, извлекаемого установкой, м³/мин",
  ];
  const steady = ["1400", "60", "0,3", "9000", "12"];
  return `${[
    [time, more[0], measuredAir, drained, ...more.slice(1), y],
    ...lines.map((line) => {
      const [t, air, d, value] = line.split(";");
      return [t, steady[0], air, d, ...steady.slice(1), value];
    }),
  ]
    .map((cells) => cells.join(";"))
    .join("\n")}\n`;
}

const get = (path: string, bearer = token) => fetch(`${server.url}/api/${path}`, { headers: { Authorization: `Bearer ${bearer}` } });

function train(text: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new File([text], "история.csv", { type: "text/csv" }));
  return fetch(`${server.url}/api/v1/forecast_models/xgboost/train/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
}

interface Job {
  job: string;
  state: string;
  progress: number;
  status_url?: string;
  model_id?: string;
  detail?: string;
}

async function follow(statusUrl: string): Promise<Job[]> {
  const seen: Job[] = [];
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await get(statusUrl);
    expect(res.status).toBe(200);
    const state = (await res.json()) as Job;
    seen.push(state);
    if (state.state === "done" || state.state === "failed" || Date.now() > deadline) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function ownVersions(bearer = token) {
  const res = await get("v1/forecast_models/", bearer);
  const body = (await res.json()) as {
    results: Array<{
      method: string;
      versions: Array<{ id: string; company?: string; is_active: boolean; horizon?: number; training?: { horizon?: number } }>;
    }>;
  };
  return body.results.find((r) => r.method === "xgboost")!.versions.filter((v) => v.company !== undefined);
}

beforeAll(async () => {
  server = await startLocalServer({ port: 0 });
  const company = (await createCompany(server.deps, { name: "Шахта Обучающая" })).id;
  await createUser(server.deps, { companyId: company, email: "engineer@example.com", password: "engineer-password", role: "staff" });
  const other = await createCompany(server.deps, { name: "Другая организация" });
  await createUser(server.deps, { companyId: other.id, email: "other@example.com", password: "other-password", role: "staff" });
  token = await accessToken(server.url, { email: "engineer@example.com", password: "engineer-password" });
  otherToken = await accessToken(server.url, { email: "other@example.com", password: "other-password" });
  const project = await fetch(`${server.url}/api/v1/projects/create_project/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Лава 7", start_date: "2024-01-01", end_date: "2025-12-31" }),
  });
  projectId = ((await project.json()) as { id: string }).id;
}, 120_000);

afterAll(() => server?.close());

describe("training a model on the local host", () => {
  it("is a job of a worker thread: 202 at once, queued → running → done naming the stored model", async () => {
    const started = await train(history(1500), { params: JSON.stringify({ n_estimators: 150, max_depth: 4 }), activate: "true" });
    expect(started.status, await started.clone().text()).toBe(202);
    const job = (await started.json()) as Job;
    expect(job).toMatchObject({ state: "queued", progress: 0, status_url: `v1/export_jobs/${job.job}/` });
    // Another company's user: the same id is not theirs.
    expect((await get(job.status_url!, otherToken)).status).toBe(404);

    const seen = await follow(job.status_url!);
    const done = seen.at(-1)!;
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", progress: 100, model_id: expect.any(String) });
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen.every((s) => ["queued", "running", "done"].includes(s.state))).toBe(true);

    const own = await ownVersions();
    expect(own).toEqual([expect.objectContaining({ id: done.model_id, is_active: true })]);
    expect(await ownVersions(otherToken)).toEqual([]);
  }, 120_000);

  it("fails a constant concentration with the trainer's Russian message, storing nothing", async () => {
    const before = (await ownVersions()).length;
    const started = await train(history(300, true), {});
    expect(started.status).toBe(202);
    const job = (await started.json()) as Job;
    const failed = (await follow(job.status_url!)).at(-1)!;
    expect(failed).toMatchObject({ state: "failed", progress: 100 });
    expect(failed.detail).toMatch(/^file: .*[а-я]/);
    expect(await ownVersions()).toHaveLength(before);
  }, 120_000);

  // the job's message had no horizon, so the thread trained and stored a nowcast.
  it.each(HORIZONS.filter((h) => h > 0))(
    "trains for %i minutes ahead in the thread, stores that horizon and forecasts at it",
    async (horizon) => {
      const started = await train(history(700 + horizon / 10), {
        params: JSON.stringify({ n_estimators: 20, max_depth: 3 }),
        horizon: String(horizon),
        description: `Лава 7, ${horizonLabel(horizon)}`,
      });
      expect(started.status, await started.clone().text()).toBe(202);
      const done = (await follow(((await started.json()) as Job).status_url!)).at(-1)!;
      expect(done, JSON.stringify(done)).toMatchObject({ state: "done", model_id: expect.any(String) });
      const model = (await ownVersions()).find((v) => v.id === done.model_id);
      expect(model).toMatchObject({ horizon, is_active: false, training: { horizon } });

      // The company's forecast at that horizon picks it by itself, and answers.
      const form = new FormData();
      form.set("name", `Лава 7, ${horizonLabel(horizon)} вперед`);
      form.set("project", projectId);
      form.set("method", "xgboost");
      form.set("horizon", String(horizon));
      form.set("file_data", new Blob([forecastHistory(300)]), "история.csv");
      const made = await fetch(`${server.url}/api/v1/regres_methane/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      expect(made.status, await made.clone().text()).toBe(201);
      const { id } = (await made.json()) as { id: string };
      const shown = (await (await get(`v1/regres_methane/${id}/single_calc/1/`)).json()) as { horizon: number; model: { id: string } };
      expect(shown).toMatchObject({ horizon, model: { id: done.model_id } });
    },
    120_000,
  );

  it(`lets one user hold at most ${HEAVY_PER_USER} jobs at once, queued or running, until they end`, async () => {
    // a queued job's slot lapsed and one user had 4 trainings in flight. Each history differs,
    // so no request is another's job.
    const params = { params: JSON.stringify({ n_estimators: 100, max_depth: 4 }) };
    const sent = await Promise.all([1500, 1501, 1502].map((rows) => train(history(rows), params)));
    const statuses = sent.map((res) => res.status).sort();
    expect(statuses).toEqual([202, 202, 429]);
    const jobs = (await Promise.all(sent.filter((res) => res.status === 202).map((res) => res.json()))) as Job[];
    // While they wait or run, one more is refused.
    const more = await train(history(1503), params);
    expect(more.status).toBe(429);
    expect(Number(more.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await more.json()) as { detail: string }).detail).toContain(`у пользователя не более ${HEAVY_PER_USER}`);
    for (const job of jobs) expect((await follow(job.status_url!)).at(-1)).toMatchObject({ state: "done" });
    // Ended, they hold nothing: the next one starts.
    const next = await train(history(1503), params);
    expect(next.status).toBe(202);
    await follow(((await next.json()) as Job).status_url!);
  }, 180_000);
});
