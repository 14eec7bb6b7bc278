import { describe, expect, it } from "vitest";
import { actionsFor, reviewDateProblem, senderOf } from "./inventory";

const staff = { role: "staff", email: "staff@example.com" } as const;
const reviewer = { role: "reviewer", email: "reviewer@example.com" } as const;
const admin = { role: "admin", email: "admin@example.com" } as const;
const sentBy = (by: string) => [{ action: "send_to_review", by }];

describe("review actions on the inventory screen", () => {
  it("offers staff only sending to review, and the reviewer or admin the rest", () => {
    expect(actionsFor("draft", staff, [])).toEqual(["send_to_review"]);
    expect(actionsFor("in_review", staff, sentBy(staff.email))).toEqual([]);
    expect(actionsFor("in_review", reviewer, sentBy(staff.email))).toEqual(["return_to_draft", "approve"]);
    expect(actionsFor("submitted", staff, sentBy(staff.email))).toEqual([]);
    expect(actionsFor("submitted", reviewer, sentBy(staff.email))).toEqual(["accept", "refuse"]);
    expect(actionsFor("approved", staff, sentBy(staff.email))).toEqual([]);
    expect(actionsFor("approved", admin, sentBy(staff.email))).toEqual(["reopen", "submit"]);
    expect(actionsFor("refused", reviewer, [])).toEqual(["rework_done"]);
  });

  it("never offers approving, returning or reopening to the person who sent the version (four eyes)", () => {
    const history = [...sentBy(admin.email), { action: "return_to_draft", by: reviewer.email }, ...sentBy(reviewer.email)];
    expect(senderOf(history)).toBe(reviewer.email);
    expect(actionsFor("in_review", reviewer, history)).toEqual([]);
    expect(actionsFor("in_review", admin, history)).toEqual(["return_to_draft", "approve"]);
    expect(actionsFor("approved", reviewer, history)).toEqual(["submit"]);
  });
});

describe("dates a transition takes", () => {
  it("are real calendar dates of the reporting year or later, never in the future", () => {
    expect(reviewDateProblem("2025-04-20", 2024, "2026-11-23")).toBeUndefined();
    expect(reviewDateProblem("2026-11-23", 2024, "2026-11-23")).toBeUndefined();
    expect(reviewDateProblem("2024-01-01", 2024, "2026-11-23")).toBeUndefined();
    expect(reviewDateProblem("2026-02-31", 2024, "2026-11-23")).toMatch(/существующую дату/);
    expect(reviewDateProblem("2024-13-01", 2024, "2026-11-23")).toMatch(/существующую дату/);
    expect(reviewDateProblem("20.04.2025", 2024, "2026-11-23")).toMatch(/существующую дату/);
    expect(reviewDateProblem("0000-01-01", 2024, "2026-11-23")).toMatch(/раньше 2024 года/);
    expect(reviewDateProblem("2023-12-31", 2024, "2026-11-23")).toMatch(/раньше 2024 года/);
    expect(reviewDateProblem("9999-12-31", 2024, "2026-11-23")).toMatch(/в будущем/);
    expect(reviewDateProblem("2026-11-24", 2024, "2026-11-23")).toMatch(/в будущем/);
  });
});
