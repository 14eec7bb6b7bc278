// The local host's scoring threads (scoring-threads.ts): a stored model parsed and scored in a
// thread answers what this process would, and the thread's refusals reach the caller as the same
// errors (a bad argument a RangeError, a missing file a 404).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadModel, predict, whatIf } from "@core/gbdt";
import { fsBlobStore } from "../adapters/blob/fs-blob-store";
import { DomainError } from "../domain/errors";
import { checkModelFile } from "../domain/forecast/models";
import type { ForecastModelVersion } from "../ports";
import { modelFixture } from "../../../tests/support/models";
import { scoringThreads } from "./scoring-threads";
import { abatementKernels, evaluateAbatement } from "@core/abatement";
import { evaluateClimatePeriod } from "@core/climate-project";
import { emissionsCore } from "@core/emissions";
import { Invalid } from "../domain/errors";
import { constructedMineRequest, vectorParams } from "../../../tests/support/abatement-vectors";
import { fieldName } from "../contract/field-names";

const blobsDir = mkdtempSync(join(tmpdir(), "scoring-"));
const text = readFileSync(modelFixture("methane-xgboost.json"), "utf8");
const version = (id: string) =>
  ({ id, method: "xgboost", blob_key: `models/xgboost/${id}`, file_name: `${id}.json` }) as ForecastModelVersion;
const threads = scoringThreads({ blobsDir });
afterAll(() => threads.close());

describe("scoring threads", () => {
  it("answer a prediction and a what-if as the model does in this process", async () => {
    await fsBlobStore(blobsDir).put("models/xgboost/stored", new TextEncoder().encode(text), "application/json");
    const model = await loadModel(text);
    const rows = [[1400, 1400, 35, 100, 0.5, 16000, 35]];
    const order = ["x1", "x2", "x7", "x8", "x12", "x13", "x15"];
    expect(await threads.score(version("stored"), { op: "predict", args: [rows, order] })).toEqual(predict(model, rows, order));
    const row = { x1: 1400, x2: 1400, x7: 35, x8: 100, x12: 0.5, x13: 16000, x15: 35 } as never;
    const vary = { feature: "x1", from: 1000, to: 1700, steps: 7 };
    expect(await threads.score(version("stored"), { op: "what_if", args: [row, vary, null, 90, 1] })).toEqual(
      whatIf(model, row, vary, null, 90, 1),
    );
    await expect(threads.score(version("stored"), { op: "what_if", args: [row, { ...vary, steps: 0 }, null, 90, 1] })).rejects.toThrow(
      RangeError,
    );
  });

  it("refuse a model whose file is gone as the request thread would", async () => {
    const refused = await threads.score(version("missing"), { op: "predict", args: [[[1]]] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).kind).toBe("not_found");
  });

  it("check a model file being uploaded as this process would: described, or refused with the same message", async () => {
    expect(await threads.check("xgboost", text)).toEqual(await checkModelFile("xgboost", text));
    const refused = await threads.check("lightgbm", text).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).kind).toBe("invalid");
    expect((refused as DomainError).detail).toBe("file: это модель xgboost, а выбран метод lightgbm");
    // The problem at its field crosses the thread as data.
    expect((refused as DomainError).problems).toEqual([
      { field: "file", code: "invalid", message: "это модель xgboost, а выбран метод lightgbm", params: {} },
    ]);
  });

  it("evaluate an abatement request as this process does, codes as data, one per company at a time", async () => {
    const kernels = abatementKernels(emissionsCore());
    const request = constructedMineRequest();
    expect(await threads.evaluate("c1", request, kernels.thresholds)).toEqual(evaluateAbatement(request, kernels));
    expect(await threads.evaluateText("c1", request, kernels.thresholds)).toBe(JSON.stringify(evaluateAbatement(request, kernels)));
    // A «__proto__» key crosses to the thread as data.
    const coded = JSON.parse(
      `{"streams": [{"code": "__proto__", "kind": "drainage", "q_mix_m3_min": 40, "c_ch4_pct": 35}], "options": {"__proto__": ["FLARE_OPEN"]}}`,
    );
    const answer = await threads.evaluate("c1", { ...coded, params: vectorParams() }, kernels.thresholds);
    expect(answer.streams[0].options.map((o) => o.option_code)).toEqual(["FLARE_OPEN"]);
    // The core's refusal comes back as the 400 naming its field.
    const refused = threads.evaluate(
      "c1",
      { streams: [{ code: "x", kind: "drainage", q_mix_m3_min: 5, c_ch4_pct: 140 }], params: vectorParams() },
      kernels.thresholds,
    );
    await expect(refused).rejects.toThrow(Invalid);
    await expect(refused).rejects.toThrow(`${fieldName("streams[0].c_ch4_pct")}: Значение должно быть не больше 100`);
    // A company's second evaluation starts once its first is over; another company's does not wait.
    const order: string[] = [];
    const big = {
      ...request,
      streams: Array.from({ length: 50 }, (_, i) => ({ ...request.streams[0], code: `s${i}` })),
      options: undefined,
      overrides: undefined,
    };
    const first = threads.evaluate("c2", big, kernels.thresholds).then(() => order.push("c2 first"));
    const second = threads.evaluate("c2", request, kernels.thresholds).then(() => order.push("c2 second"));
    await Promise.all([first, second]);
    expect(order).toEqual(["c2 first", "c2 second"]);
  });

  it("evaluate a climate project's period as this process does, a refused field as the 400 naming it", async () => {
    const engine = {
      period: { e_own_mwh: 0.2 },
      devices: [
        {
          id: "ГПУ-1",
          kind: "engine" as const,
          flow_basis: "standard_20C" as const,
          hours: [
            { label: "2026-06-01T00", repeat: 3, segments: [{ from: 0, to: 60, q: 18, c: 52, run: 1 }], e_gen_mwh: 2.06 },
            {
              label: "2026-06-01T03",
              repeat: 1,
              segments: [
                { from: 0, to: 40, q: 18, c: 52, run: 1 },
                { from: 40, to: 46, q: 18, c: null, run: 1 },
                { from: 46, to: 60, q: 18, c: 51.4, run: 1 },
              ],
              e_gen_mwh: 2.05,
            },
          ],
        },
      ],
    };
    expect(await threads.climatePeriod("c1", engine)).toEqual(evaluateClimatePeriod(engine));
    const refused = threads.climatePeriod("c1", { ...engine, period: { nmhc_pct_vol: 3 } });
    await expect(refused).rejects.toThrow(Invalid);
    await expect(refused).rejects.toThrow(`${fieldName("period.nmhc_pct_vol")}: НМУВ > 1 % — методология не поддерживается`);
  });
});
