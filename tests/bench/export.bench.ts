// Export of a 10 000-calculation project (docs/api.md; the issue's Lambda budget): time, file size and
// peak RSS of each format, the detailed xlsx first. The calculations are written straight through
// the repository of an in-memory dynalite table (no API round trips), shaped as the API stores
// them: formula types with sourced coefficients, gap filling with element rows, forecasts with
// data rows in the blob store. RSS is sampled every 10 ms while one export runs; "peak − before" is what the export
// itself added on top of the loaded process.
import { localRuntime } from "@server/local/subscribers";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fsBlobStore } from "@server/adapters/blob/fs-blob-store";
import { configFromEnv } from "@server/config";
import type { Actor, Deps } from "@server/domain/context";
import { storeForecastRows, type ForecastKeptRow } from "@server/domain/forecast/rows";
import { newId } from "@server/domain/ids";
import { inProcessSpreadsheets } from "@server/export/in-process";
import type { ExportFormat } from "@server/export/formats";
import { exportProject } from "@server/export/project-export";
import { openMemoryStorage } from "@server/local/storage";
import { seedDictionaries } from "@server/domain/reference/dictionaries";
import { countCalls, type CallCounter } from "@server/adapters/dynamodb/call-count";
import type { StoredCalculation } from "@server/ports";
import type { Project } from "@server/contract/schemas/project";
import { bodyBytes } from "./file-answer";
import { fromDictionary, storedMachineryFuel, storedUnderground, typed } from "./coefficient-uses";
import { ephemeralSigner } from "@server/adapters/signing/rsa-signer";

const TOTAL = 10_000;
const MIX: Array<[type: string, share: number]> = [
  ["underground", 0.3],
  ["open_mining_co2", 0.3],
  ["underground_emission_ch4", 0.2],
  ["filling_blanks", 0.1],
  ["regres_methane", 0.1],
];
const WRITERS = 16;

const gwp = fromDictionary("get_gwp", 25, "т CO2-экв./т CH4");

function calculation(type: string, i: number, project: Project, email: string): StoredCalculation {
  const volume = 1000 + (i % 997) * 13.7;
  const base = {
    id: newId(),
    type,
    project: project.id,
    company: project.company,
    name: `Расчет ${type} № ${i + 1}`,
    is_active: true,
    is_deleted: false,
    version: 1,
    methodology_version: "2026.1",
    created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    created_by: email,
    updated_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    updated_by: email,
  };
  switch (type) {
    case "underground":
      return { ...base, ...storedUnderground(volume, 25) };
    case "open_mining_co2":
      return { ...base, ...storedMachineryFuel(volume, i % 2 === 1) };
    case "underground_emission_ch4": {
      const resCh4 = volume * 18 * 0.67 * 0.001;
      return {
        ...base,
        inputs: { volume, ef: 18, koef_transform: 0.67, gwp_ch4: 25 },
        results: { res_ch4: resCh4, res_ch4_to_co2: resCh4 * 25 },
        coefficients: {
          volume: typed(volume, "т"),
          ef: fromDictionary("get_underground_emission_ch4", 18, "м³/т"),
          koef_transform: { value: 0.67, unit: "кг/м³", source: "fixed" },
          gwp_ch4: gwp,
        },
      };
    }
    case "filling_blanks":
      return {
        ...base,
        inputs: { name_value: "CH4", name_element: "Шахта" },
        file: {
          key: `uploads/${project.company}/${base.id}/file.csv`,
          name: "ряд.csv",
          size: 400,
          format: "csv",
          uploaded_at: base.created_at,
        },
        results: {
          elements: ["Северная", "Южная"].map((name, e) => ({
            id: e + 1,
            name,
            rows: Array.from({ length: 10 }, (_, y) => ({ year: 2014 + y, value: 100 + y * 3 + e, method: y % 4 === 1 ? "interp" : null })),
          })),
        },
        coefficients: {},
      };
    default:
      // The rows themselves go to the blob store (seed), as the API keeps them.
      return {
        ...base,
        inputs: { method: "xgboost" },
        results: { rows: FORECAST_ROWS.length, max_result: Math.max(...FORECAST_ROWS.map((r) => r.result ?? 0)) },
        coefficients: {},
      };
  }
}

const FORECAST_ROWS: ForecastKeptRow[] = Array.from({ length: 30 }, (_, d) => ({
  id: d + 1,
  x1: 1200 + d,
  x2: 1190 + d,
  x7: 35.5,
  x8: 48.2,
  x12: 0.41,
  x13: 9100,
  x15: 17.1,
  result: 0.3 + (d % 10) / 10,
}));

async function seed(deps: Deps, project: Project, email: string): Promise<void> {
  const jobs: StoredCalculation[] = [];
  for (const [type, share] of MIX) {
    for (let i = 0; i < Math.round(TOTAL * share); i++) jobs.push(calculation(type, i, project, email));
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        if (job.type === "regres_methane") job.results.data_key = await storeForecastRows(deps, job.company, job.id, FORECAST_ROWS);
        await deps.repos.calculations.create(job);
      }
    }),
  );
}

async function measure(deps: Deps, actor: Actor, project: Project, format: ExportFormat, detail: boolean, counter: CallCounter) {
  global.gc?.();
  counter.reset();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const start = performance.now();
  const result = await exportProject(deps, actor, project.id, format, { detail });
  if (result.kind !== "body") throw new Error("expected the file in the body");
  const bytes = await bodyBytes(result);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `${(detail ? "detailed " : "plain ") + format}`.padEnd(14) +
      `${seconds.toFixed(2).padStart(6)} s  ${mb(bytes).padStart(6)} MB file  peak RSS ${mb(peak).padStart(6)} MB (+${mb(peak - before)} MB)  ` +
      `${counter.calls.length} DynamoDB calls`,
  );
}

export async function run(): Promise<void> {
  const storage = await openMemoryStorage();
  const blobsDir = mkdtempSync(join(tmpdir(), "export-bench-"));
  try {
    const deps: Deps = {
      repos: storage.repos,
      blobs: fsBlobStore(blobsDir),
      clock: { now: () => new Date() },
      config: configFromEnv(randomBytes(32)),
      spreadsheets: inProcessSpreadsheets(() => deps),
      signer: ephemeralSigner(),
      runtime: localRuntime(() => deps),
    };
    // The reference dictionaries, as the server seeds them: the export's project figures net at
    // the GWP set in force for the year.
    await seedDictionaries(deps);
    const company = newId();
    const actor: Actor = { id: newId(), company, email: "bench@example.com", role: "staff" };
    const now = new Date().toISOString();
    const project: Project = {
      id: newId(),
      name: "Нагрузочный проект",
      start_date: "2025-01-01",
      end_date: "2025-12-31",
      reporting_year: 2025,
      created_at: now,
      updated_at: now,
      status: 1,
      company,
      user: actor.id,
      is_active: true,
      is_deleted: false,
      version: 1,
    };
    await deps.repos.projects.create(project);
    const seeding = performance.now();
    await seed(deps, project, actor.email);
    console.log(
      `${TOTAL} calculations written in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${MIX.map(([t, s]) => `${t} ${s * 100} %`).join(", ")})`,
    );
    // The calls the export makes, counted where the repositories send them.
    const counter = countCalls(storage.doc!);
    await measure(deps, actor, project, "xlsx", true, counter);
    await measure(deps, actor, project, "xlsx", false, counter);
    await measure(deps, actor, project, "xls", true, counter);
    await measure(deps, actor, project, "txt", false, counter);
  } finally {
    await storage.close();
    rmSync(blobsDir, { recursive: true, force: true });
  }
}
