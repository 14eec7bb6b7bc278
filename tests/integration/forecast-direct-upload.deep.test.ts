// The most rows a model is trained on (MAX_TRAINING_ROWS, 200 000), in a history of about 29 MB, over
// any request, sent straight to storage (docs/api.md, «Large histories»): trained from its key and the
// upload deleted after. At this size only (a minimum or maximum over its times spread as arguments
// overflowed the stack); forecast-direct-upload.test.ts trains from a key on a year of 10-minute
// readings (52 560 rows) in the other tiers.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "@core/gbdt";
import { longwallHistory } from "@core/gbdt/longwall-history";
import { MAX_FORECAST_UPLOAD_BYTES } from "@server/contract/schemas/uploads";
import { createHarness, type Harness } from "../support/harness";
import { historyCsv, repeatedHistoryCsv } from "../support/longwall-csv";
import { modelFixture } from "../support/models";
import { forecastUploaded } from "../support/forecast-upload";

let h: Harness;
let staff: Awaited<ReturnType<Harness["signedInUser"]>>;
let yearText: string;

beforeAll(async () => {
  h = await createHarness();
  staff = await h.signedInUser("Шахта Телеметрия");
  const model = await loadModel(readFileSync(modelFixture("methane-xgboost.json"), "utf8"));
  yearText = historyCsv(longwallHistory(model, 52_560, 0.06));
}, 120_000);
afterAll(() => h.close());

describe("training on the most rows it takes", () => {
  it("trains on a 200 000-row file (about 29 MB, over any request) sent straight to storage", async () => {
    const bytes = new TextEncoder().encode(repeatedHistoryCsv(yearText, 200_000));
    expect(bytes.byteLength).toBeGreaterThan(16 * 1024 * 1024);
    expect(bytes.byteLength).toBeLessThan(MAX_FORECAST_UPLOAD_BYTES);
    const key = await forecastUploaded(h, staff.token, bytes, "лава 7, 200 000 строк.csv");
    const form = new FormData();
    form.set("file_upload", key);
    form.set("params", JSON.stringify({ n_estimators: 5, max_depth: 3 }));
    form.set("description", "Лава 7");
    const res = await h.request("/api/v1/forecast_models/xgboost/train/", { method: "POST", token: staff.token, body: form });
    expect(res.status, await res.clone().text()).toBe(201);
    const trained = (await res.json()) as { description: string; training: { rows: number; skipped_rows: number } };
    expect(trained.training).toMatchObject({ rows: 200_000, skipped_rows: 0 });
    expect(trained.description).toBe("Лава 7");
    expect(await h.deps.blobs.stat!(key)).toBeUndefined();
  }, 180_000);
});
