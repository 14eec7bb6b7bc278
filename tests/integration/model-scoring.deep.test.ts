// Parsing a model off the request thread (docs/security.md, «Models bounded»): a large model's first
// what-if parsed it on the server's one thread (3.6–7.3 s for 107 MB; another company waited up to
// 6.5 s). Models are now parsed and scored in a pool of scoring threads, so another company's get_me
// waits for none of it. Measured on the local server as `npm start` runs it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@server/local/server";
import { createCompany, createUser } from "@server/domain/company/users";
import { accessToken } from "../support/server";
import { whileProbing } from "../support/large-forecasts";
import { syntheticXGBoost } from "../bench/synthetic-forest";

/** Models of about 10 MB each (trees of depth 6), each parsed on its first what-if. */
const MODELS = 12;
const TREES = 1_700;
const AT_ONCE = 2;
let server: LocalServer;
let staff: string;
let otherToken: string;
const modelIds: string[] = [];

beforeAll(async () => {
  server = await startLocalServer({ port: 0 });
  const company = (await createCompany(server.deps, { name: "Шахта Моделей" })).id;
  await createUser(server.deps, {
    ...{ companyId: company, email: "models@example.com", password: "models-password" },
    ...{ first_name: "Иван", last_name: "Петров", role: "staff" },
  });
  staff = await accessToken(server.url, { email: "models@example.com", password: "models-password" });
  const other = await createCompany(server.deps, { name: "Другая организация" });
  await createUser(server.deps, {
    ...{ companyId: other.id, email: "other@example.com", password: "other-password" },
    ...{ first_name: "Олег", last_name: "Сидоров", role: "staff" },
  });
  otherToken = await accessToken(server.url, { email: "other@example.com", password: "other-password" });
  const [platform] = await server.deps.repos.forecastModels.list("xgboost");
  for (let i = 0; i < MODELS; i++) {
    // A different seed each, so no two files are alike.
    const bytes = new TextEncoder().encode(syntheticXGBoost(TREES, 1000 + i));
    const id = `large-${i}-${company}`;
    await server.deps.blobs.put(`models/xgboost/${id}`, bytes, "application/octet-stream");
    await server.deps.repos.forecastModels.create({
      ...platform,
      id,
      version: 100 + i,
      blob_key: `models/xgboost/${id}`,
      file_bytes: bytes.byteLength,
      company,
      is_active: false,
    });
    modelIds.push(id);
  }
}, 300_000);

afterAll(() => server?.close());

describe(`what-if on ${MODELS} large models not parsed yet, ${AT_ONCE} at a time`, () => {
  it("answers each while another company's get_me waits for no parse", async () => {
    const row = { x1: 1400, x2: 1400, x7: 35, x8: 100, x12: 0.5, x13: 16000, x15: 35 };
    const whatIf = async (model: string) => {
      const res = await fetch(`${server.url}/api/v1/forecast/what_if/`, {
        method: "POST",
        headers: { Authorization: `Bearer ${staff}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model, row, vary: { feature: "x1", from: 1000, to: 1700, steps: 20 } }),
      });
      const body = (await res.json()) as { points?: unknown[]; detail?: string };
      return { status: res.status, points: body.points?.length ?? 0, detail: body.detail };
    };
    const idle = await whileProbing(server.url, otherToken, () => new Promise((done) => setTimeout(done, 2_000)));
    console.log(
      `other company's get_me with nothing else asked: p50 ${idle.p50.toFixed(0)} ms, p95 ${idle.p95.toFixed(0)} ms (${idle.calls} calls)`,
    );
    const figures = await whileProbing(server.url, otherToken, async () => {
      const answers: Array<Awaited<ReturnType<typeof whatIf>>> = [];
      for (let i = 0; i < MODELS; i += AT_ONCE) answers.push(...(await Promise.all(modelIds.slice(i, i + AT_ONCE).map(whatIf))));
      return answers;
    });
    console.log(
      `what-if on ${MODELS} models of about 10 MB not parsed yet, ${AT_ONCE} at a time: ${figures.value.filter((a) => a.status === 200).length} × 200 ` +
        `in ${figures.seconds.toFixed(1)} s, RSS +${figures.rssGrowthMb.toFixed(0)} MB of this process; ` +
        `other company's get_me p50 ${figures.p50.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms (${figures.calls} calls)`,
    );
    for (const answer of figures.value) {
      expect(answer.status, answer.detail).toBe(200);
      expect(answer.points).toBe(21);
    }
    // No model is parsed on the server's thread: another company waits for the machine's cores, not
    // behind a parse. 29 ms measured with two scoring threads on a lightly loaded 2-core machine,
    // 52 ms with one at a load average of 22 (545 ms, p95 1 949 ms, before; docs/security.md).
    expect(figures.p50).toBeLessThan(100);
  }, 300_000);
});
