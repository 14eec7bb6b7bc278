import { describe, expect, it } from "vitest";
import { leastBusy } from "./spreadsheet-threads";

const thread = (name: string, ...background: boolean[]) => ({
  name,
  jobs: new Map(background.map((b, i) => [i, { background: b }])),
});

describe("leastBusy (a user's file beside short work, not behind a job)", () => {
  it("puts work beside two short ones rather than beside a queued job", () => {
    expect(leastBusy([thread("job", true), thread("short", false, false)]).name).toBe("short");
  });
  it("among threads alike, takes the one with the fewest", () => {
    expect(leastBusy([thread("two", false, false), thread("one", false)]).name).toBe("one");
    expect(leastBusy([thread("jobs", true, true), thread("job", true)]).name).toBe("job");
  });
});
