// ML audit, Medium: a sensor feeding a bound model that has sent nothing for 8 minutes
// is named in the tile's forecast note as silent and the forecast marked as made without it; the tile
// once listed it as feeding while its column was empty. The forecast's own meter is not named (a silent
// meter's forecast is not shown at all).
import { describe, expect, it } from "vitest";
import { MINUTE_MS } from "@core/dates";
import type { Sensor } from "../../../ports";
import { SILENT_MINUTES, withSilent, type LiveView } from "./live";

type Forecast = LiveView["tiles"][number]["forecasts"][number];
const NOW = Date.UTC(2026, 2, 1, 3, 0);
const sensor = (id: string, code: string) => ({ id, code }) as unknown as Sensor;
const METER = sensor("m", "М-1");
const AIR = sensor("a", "V-1");
const DRAIN = sensor("q", "Q-Д");
const readings = (last: Record<string, number | null>) =>
  new Map(
    Object.entries(last).map(([id, minutesAgo]) => [
      id,
      minutesAgo === null
        ? { times: new Float64Array(0), values: new Float64Array(0), demo: false }
        : { times: Float64Array.of(NOW - minutesAgo * MINUTE_MS), values: Float64Array.of(1), demo: false },
    ]),
  );
const forecast = {
  issued_at: new Date(NOW).toISOString(),
  note: "",
  columns: [
    { column: "x1", label: "Расход воздуха", sensor: "V-1" },
    { column: "x8", label: "Расход дегазации", sensor: "Q-Д" },
    { column: "x2", label: "Метан", sensor: null },
  ],
} as unknown as Forecast;
const features = { x1: AIR, x8: DRAIN, x2: undefined } as unknown as Parameters<typeof withSilent>[1];

describe("a silent sensor of a bound model", () => {
  it("names a sensor silent for 8 minutes and marks the forecast as made without it", () => {
    const shown = withSilent(forecast, features, METER, readings({ m: 9, a: SILENT_MINUTES, q: 7 }), NOW);
    expect(shown.made_without).toEqual(["V-1"]);
    expect(shown.columns?.map((c) => c.silent_minutes)).toEqual([8, null, null]);
    expect(shown.note).toBe("Датчики модели молчат — V-1 (x1, «Расход воздуха»): нет показаний 8 мин: прогноз сделан без их показаний.");
  });

  it("adds the silence to the notes the tile shows a line each (D108 f)", () => {
    const listed = { ...forecast, note: "Модель не откалибрована.", notes: ["Модель не откалибрована."] } as Forecast;
    const shown = withSilent(listed, features, METER, readings({ m: 9, a: SILENT_MINUTES, q: 7 }), NOW);
    expect(shown.notes).toEqual([
      "Модель не откалибрована.",
      "Датчики модели молчат — V-1 (x1, «Расход воздуха»): нет показаний 8 мин: прогноз сделан без их показаний.",
    ]);
  });

  it("says a silence past the hour in hours", () => {
    const shown = withSilent(forecast, features, METER, readings({ m: 9, a: 95, q: 7 }), NOW);
    expect(shown.note).toBe(
      "Датчики модели молчат — V-1 (x1, «Расход воздуха»): нет показаний 1 ч 35 мин: прогноз сделан без их показаний.",
    );
  });

  it("says a sensor without a reading in the day as such, and leaves a fresh tile's forecast as it was", () => {
    const shown = withSilent(forecast, features, METER, readings({ m: 0, a: 1, q: null }), NOW);
    expect(shown.made_without).toEqual(["Q-Д"]);
    expect(shown.note).toContain("Q-Д (x8, «Расход дегазации»): нет показаний за сутки");
    const fresh = withSilent(forecast, features, METER, readings({ m: 0, a: 1, q: 7 }), NOW);
    expect(fresh).toBe(forecast);
    // Silent as of the forecast's minute: a sensor that stopped with its meter is not named.
    const quiet = { ...forecast, issued_at: new Date(NOW - 20 * MINUTE_MS).toISOString() };
    expect(withSilent(quiet, features, METER, readings({ m: 20, a: 20, q: 21 }), NOW)).toBe(quiet);
  });
});
