// the climate pack's verify.py recomputes a period from its meters' readings by
// methodology section 13 on its own (Python 3's standard library, no line of the platform's core). Each
// of section 13.6's six vectors is expressed as minutes — a reading a minute per channel at the
// minute's start, none where the vector says null; the hourly analyser, generation and heat one reading
// in their hour; the own use one reading of an own-use meter — and verify.py's totals, each block's
// hour and the deviations equal the vector's to its relative tolerance (tests/support/climate-vectors.py).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEVICE_KIND_SPECS } from "@core/climate-devices";
import { describe, expect, it } from "vitest";

interface Case {
  case: string;
  title: string;
  inputs: unknown;
  expected: {
    totals: Record<string, number>;
    devices: { id: string; blocks?: Record<string, unknown>[] }[];
    deviations: Record<string, unknown>[];
  };
}
const VECTORS = JSON.parse(readFileSync(new URL("../fixtures/methodology/climate-project-vectors.json", import.meta.url), "utf8")) as {
  rel_tol: number;
  cases: Case[];
};
const driver = fileURLToPath(new URL("../support/climate-vectors.py", import.meta.url));
const verifyDir = fileURLToPath(new URL("../../functions/src/export/verify/", import.meta.url));
const tolerance = Math.max(VECTORS.rel_tol, 1e-11);

/** Numbers to the vectors' relative tolerance, everything else exactly. */
function expectClose(actual: unknown, expected: unknown, where: string): void {
  if (typeof expected === "number") {
    expect(typeof actual, where).toBe("number");
    expect(Math.abs((actual as number) - expected), `${where}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
      tolerance * Math.max(1, Math.abs(expected)),
    );
  } else if (expected && typeof expected === "object" && !Array.isArray(expected)) {
    // Every key the vector gives, and no other in a map of minutes by channel.
    if (/_min$/.test(where)) expect(Object.keys(actual as object).sort(), where).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[key], value, `${where}.${key}`);
  } else if (Array.isArray(expected)) {
    expect((actual as unknown[]).length, where).toBe(expected.length);
    expected.forEach((value, i) => expectClose((actual as unknown[])[i], value, `${where}[${i}]`));
  } else expect(actual, where).toEqual(expected);
}

describe("verify.py's recomputation of a climate period (section 13.6's vectors as minutes)", () => {
  it("has every device kind's worked example among the cases it recomputes", () => {
    for (const kind of DEVICE_KIND_SPECS) {
      const example = VECTORS.cases.find((c) => c.case === kind.example)?.inputs as { devices: { kind: string }[] } | undefined;
      expect(
        example?.devices.map((d) => d.kind),
        `${kind.id}: 13.5 (${kind.example})`,
      ).toContain(kind.id);
    }
  });

  for (const vector of VECTORS.cases) {
    it(`case ${vector.case}: ${vector.title}`, () => {
      const run = spawnSync("python3", [driver, verifyDir], { input: JSON.stringify(vector), encoding: "utf8", maxBuffer: 1 << 28 });
      expect(run.status, run.stderr).toBe(0);
      const got = JSON.parse(run.stdout) as {
        labels: string[];
        devices: Record<string, unknown>[][];
        totals: Record<string, number>;
        deviations: Record<string, unknown>[];
      };
      expectClose(got.totals, vector.expected.totals, "totals");
      expectClose(got.deviations, vector.expected.deviations, "deviations");
      vector.expected.devices.forEach((device, d) => {
        let hour = 0;
        for (const block of device.blocks ?? []) {
          const { label, repeat, ...figures } = block as { label: string; repeat: number };
          for (let r = 0; r < repeat; r++) expectClose(got.devices[d][hour + r], figures, `${device.id} ${label} +${r}`);
          expect(got.labels[hour]).toBe(label.split("..")[0]);
          hour += repeat;
        }
      });
    });
  }
});
