import { describe, expect, it } from "vitest";
import { secondsUntilRoom } from "./attempt-counter";

const WINDOW = 900;
const START = 1_800_000_000 - (1_800_000_000 % WINDOW);

describe("secondsUntilRoom", () => {
  it("waits for the previous window's attempts to slide out while this window has room", () => {
    // 10 of 10 in the previous window, none in this one, 90 s in: room once a tenth has slid out.
    expect(secondsUntilRoom({ previous: 10, current: 0, limit: 10, windowSeconds: WINDOW, now: START })).toBe(90);
    expect(secondsUntilRoom({ previous: 10, current: 0, limit: 10, windowSeconds: WINDOW, now: START + 30 })).toBe(60);
    // 4 of 10 in this window: 5 of the previous 10 must slide out, half the window.
    expect(secondsUntilRoom({ previous: 10, current: 4, limit: 10, windowSeconds: WINDOW, now: START + 100 })).toBe(350);
  });

  it("waits into the next window when this one is full", () => {
    // 10 of 10 now: at the next window's start they weigh 10, a tenth must slide out.
    expect(secondsUntilRoom({ previous: 0, current: 10, limit: 10, windowSeconds: WINDOW, now: START + 600 })).toBe(300 + 90);
    expect(secondsUntilRoom({ previous: 7, current: 10, limit: 10, windowSeconds: WINDOW, now: START })).toBe(900 + 90);
  });

  it("says at least a second, even when there is room already", () => {
    expect(secondsUntilRoom({ previous: 0, current: 0, limit: 10, windowSeconds: WINDOW, now: START + 5 })).toBe(1);
  });
});
