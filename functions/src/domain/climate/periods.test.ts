// When a climate period is computed as a job: where the host runs period jobs and
// its hours times the plan's meters (each code once, the own-use meter too) are over
// LIMITS.climate.periodJobMeterHours, or the host's lower figure; a bound that is no hour never is
// (the request refuses it with its field).
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../contract/schemas/limits";
import type { ClimateProject, SpreadsheetWorker } from "../../ports";
import type { Deps } from "../context";
import { computedAsJob } from "./periods";
import { planMeters } from "./projects";

const ZONE = "Asia/Novokuznetsk";
const flare = (n: number) => ({ sensors: { q: `Q-${n}`, c: `C-${n}`, flame: `FL-${n}`, p: null } });
/** Three open flares (nine meters) and the own-use meter, one flare's flow meter named twice. */
const PROJECT = {
  devices: [flare(1), flare(2), { sensors: { q: "Q-1", c: "C-3", flame: "FL-3" } }],
  e_own_sensor: "EL-OWN",
} as unknown as ClimateProject;

const host = (jobs: boolean, meterHours?: number) =>
  ({
    spreadsheets: (jobs
      ? { jobsOf: ["climate_pack", "climate_period"], climatePeriod: async () => ({ kind: "job" }) }
      : { jobsOf: ["climate_pack"] }) as unknown as SpreadsheetWorker,
    config: { climatePeriodJobMeterHours: meterHours },
  }) as unknown as Pick<Deps, "spreadsheets" | "config">;

describe("computedAsJob", () => {
  it("counts each meter of the plan once, the own-use meter too", () => {
    expect([...planMeters(PROJECT)].sort()).toEqual(["C-1", "C-2", "C-3", "EL-OWN", "FL-1", "FL-2", "FL-3", "Q-1", "Q-2"]);
  });

  it("is a job over the limit's meter-hours where the host runs period jobs, on the request within it", () => {
    expect(LIMITS.climate.periodJobMeterHours).toBe(20_000);
    // 9 meters: 2 222 hours are 19 998 meter-hours, 2 223 hours 20 007.
    const upTo = (end: string) => ({ start: "2026-01-01", end });
    const within = upTo("2026-04-03T14:00"); // 92 days 14 hours: 2 222 hours
    const over = upTo("2026-04-03T15:00");
    expect(computedAsJob(host(true), PROJECT, within, ZONE)).toBe(false);
    expect(computedAsJob(host(true), PROJECT, over, ZONE)).toBe(true);
    expect(computedAsJob(host(true), PROJECT, upTo("2027-01-01"), ZONE)).toBe(true);
    // A host without period jobs computes any period on the request.
    expect(computedAsJob(host(false), PROJECT, upTo("2027-01-01"), ZONE)).toBe(false);
    // The host's own figure (tests lower it).
    expect(computedAsJob(host(true, 10), PROJECT, upTo("2026-01-01T02:00"), ZONE)).toBe(true);
    expect(computedAsJob(host(true, 18), PROJECT, upTo("2026-01-01T02:00"), ZONE)).toBe(false);
  });

  it("is never a job for a bound that is no hour: the request refuses it", () => {
    expect(computedAsJob(host(true, 1), PROJECT, { start: "2026-02-30", end: "2027-01-01" }, ZONE)).toBe(false);
  });
});
