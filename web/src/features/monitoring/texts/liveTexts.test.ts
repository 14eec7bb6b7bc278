// a tile's head names the worst state of its meters, a stale one included: «норма» was
// shown over meters that read «нет данных 2 мин».
import { expect, it } from "vitest";
import type { LiveTile } from "../../../api/live";
import { channelText, forecastTable, worstState } from "./liveTexts";

type Meter = LiveTile["meters"][number];
const meter = (code: string, state: Meter["state"], stale_minutes: number | null): Meter => ({
  sensor: code,
  code,
  kind: "methane",
  place: "face",
  norm_place: null,
  value: 0.5,
  at: "2026-03-01T03:00:00.000Z",
  warning: 1,
  alarm: 1.5,
  state,
  state_label: state,
  levels_label: null,
  gassing_since: null,
  stale_minutes,
});
const tile = (...meters: Meter[]) => ({ meters, air_flow: null, drainage_flow: null }) as unknown as LiveTile;
const flow = (code: string, stale_minutes: number | null) => ({ code, value: 1200, at: "2026-03-01T03:00:00.000Z", stale_minutes });

// D101: a CO meter silent for 21 h was left off its working's tile.
it("names a silent channel of any kind over «норма», and says its line", () => {
  const co = {
    sensor: "co",
    code: "CO-1",
    kind: "carbon_monoxide",
    kind_label: "Оксид углерода (CO)",
    unit: "ppm",
    value: 4,
    at: "2026-03-01T03:00:00.000Z",
    warning: 17,
    alarm: 20,
    stale_minutes: 1260,
    state_label: "нет данных 21 ч",
  } as const;
  expect(worstState({ ...tile(meter("М-1", "normal", null)), channels: [co] }).words).toBe("нет данных 21 ч (CO-1)");
  expect(channelText(co)).toBe("CO-1, оксид углерода (CO): 4\u00a0ppm — нет данных 21 ч");
});

it("names a silent anemometer or drainage meter over «норма» as a methane meter", () => {
  const calm = tile(meter("М-1", "normal", null));
  expect(worstState({ ...calm, air_flow: flow("V-7", 11) }).words).toBe("нет данных 11 мин (V-7)");
  expect(worstState({ ...calm, air_flow: flow("V-7", null), drainage_flow: flow("Q-2", 3) }).words).toBe("нет данных 3 мин (Q-2)");
  expect(worstState({ ...tile(meter("М-1", "warning", null)), air_flow: flow("V-7", 11) }).words).toBe("≥ W");
});

it("names a stale meter over «норма», never over a level's state", () => {
  expect(worstState(tile(meter("М-1", "normal", null), meter("М-2", "normal", 2))).words).toBe("нет данных 2 мин (М-2)");
  // each silence with its own minutes — «нет данных 21 мин (М-1, М-2, М-3, V-1)» was
  // said when three of them were 2 minutes late.
  expect(worstState(tile(meter("М-1", "normal", null), meter("М-2", "normal", 9), meter("М-3", "none", 3))).words).toBe(
    "нет данных 9 мин (М-2), 3 мин (М-3)",
  );
  const late = tile(meter("М-1", "none", 2), meter("М-2", "none", 2), meter("М-3", "none", 2));
  expect(worstState({ ...late, air_flow: flow("V-1", 21) }).words).toBe("нет данных 21 мин (V-1), 2 мин (М-1, М-2, М-3)");
  expect(worstState(tile(meter("М-1", "pre_warning", null), meter("М-2", "normal", 9))).words).toBe("≥ 0,9·W");
  expect(worstState(tile(meter("М-1", "alarm", null), meter("М-2", "normal", 9))).words).toBe("≥ A");
  expect(worstState(tile(meter("М-1", "normal", null))).words).toBe("норма");
});

// D98: a meter in a gassing of the book heads its tile red, over any W/A state.
it("heads a tile with a meter in a gassing «загазирование», red, over an alarm", () => {
  expect(worstState(tile(meter("М-1", "alarm", null), meter("М-К", "gassing", null)))).toEqual({
    state: "gassing",
    words: "загазирование",
    colour: "red",
  });
});

// A channel silent for months read «нет данных 390 826 мин»: past the hour the span is told in hours, past the day in days.
it("tells a long silence in hours and days", () => {
  const calm = tile(meter("М-1", "normal", null));
  expect(worstState({ ...calm, air_flow: flow("V-7", 390_826), drainage_flow: flow("Q-2", 95) }).words).toBe(
    "нет данных 271 сут 9 ч (V-7), 1 ч 35 мин (Q-2)",
  );
});

// «норма» was read green over «ЗАБ-7Б — нет показаний за сутки»: a meter not read ranked below it.
it("never reads «норма» over a methane meter with no reading in the window", () => {
  const unread = { ...meter("ЗАБ-7Б", "none", null), value: null, at: null };
  const head = worstState(tile(meter("М-1", "normal", null), unread));
  expect(head).toEqual({ state: "none", words: "нет показаний (ЗАБ-7Б)", colour: "purple" });
  expect(worstState(tile(unread, meter("М-2", "normal", 9))).words).toBe("нет показаний (ЗАБ-7Б); нет данных 9 мин (М-2)");
  expect(worstState(tile(unread)).state).toBe("none");
  expect(worstState(tile()).words).toBe("нет показаний");
  // A level's state still outranks it.
  expect(worstState(tile(unread, meter("М-1", "pre_warning", null))).words).toBe("≥ 0,9·W");
});

// a chance of reaching the limit no better than the base rate is not printed as a risk.
it("prints P only where it is not judged worse than the base rate", () => {
  type Forecast = LiveTile["forecasts"][number];
  const forecast = (probability: Forecast["probability"]) =>
    ({
      horizon_label: "6 ч",
      sensor: "М-1",
      level: 90,
      limit: 1,
      for: null,
      lo: 0.5,
      hi: 0.9,
      result: 0.7,
      p_exceed: 0.37,
      probability,
    }) as Forecast;
  const judged = (reliable: boolean, judgement: "better" | "not_better" | "too_early" = reliable ? "better" : "not_better") => ({
    reliable,
    judgement,
    brier: 0.132,
    base_brier: 0.094,
    rows: 900,
    events: 19,
    judged_on: "history" as const,
    judged_after: null,
  });
  expect(forecastTable([forecast(judged(false))]).rows[0].p).toBe("—");
  expect(forecastTable([forecast(judged(true))]).rows[0].p).toBe("37\u00a0%");
  // too early to judge (19 facts at the limit) is not shown either, nor a chance never judged.
  expect(forecastTable([forecast(judged(false, "too_early"))]).rows[0].p).toBe("—");
  expect(forecastTable([forecast(undefined)]).rows[0].p).toBe("—");
});

// near the limit the band held half the facts; the tile drew it as if it held 90 %.
it("says the band is not checked near the limit where it did not hold there", () => {
  type Forecast = LiveTile["forecasts"][number];
  const forecast = (result: number, reliable: boolean) =>
    ({
      horizon_label: "1 ч",
      sensor: "М-1",
      level: 90,
      limit: 1,
      warning: 0.8,
      for: null,
      lo: result - 0.1,
      hi: result + 0.1,
      result,
      p_exceed: null,
      near_limit: { rows: 39, coverage: 0.487, reliable },
    }) as unknown as Forecast;
  expect(forecastTable([forecast(0.85, false)]).rows[0].interval).toBe("у предела не проверен");
  expect(forecastTable([forecast(0.5, false)]).rows[0].interval).toBe("0,40–0,60");
  expect(forecastTable([forecast(0.85, true)]).rows[0].interval).toBe("0,75–0,95");
  // a horizon warning no earlier than the meter is marked so.
  expect(forecastTable([forecast(0.85, true)]).rows[0].late).toBeNull();
  expect(forecastTable([{ ...forecast(0.85, true), lead_note: "Прогноз на 1 ч не предупреждает раньше датчика" }]).rows[0]).toMatchObject({
    horizon: "1 ч",
    late: "не раньше датчика",
  });
});
