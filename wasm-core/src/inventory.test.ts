import { describe, expect, it } from "vitest";
import { actionsFor } from "./inventory";

describe("review actions on the inventory screen", () => {
  it("offers staff what staff may do and the reviewer the rest", () => {
    expect(actionsFor("draft", false)).toEqual(["send_to_review"]);
    expect(actionsFor("in_review", false)).toEqual([]);
    expect(actionsFor("in_review", true)).toEqual(["return_to_draft", "approve"]);
    expect(actionsFor("submitted", false)).toEqual(["accept", "refuse"]);
    expect(actionsFor("refused", true)).toEqual(["rework_done"]);
  });
});
