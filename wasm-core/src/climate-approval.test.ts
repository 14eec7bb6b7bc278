import { describe, expect, it } from "vitest";
import { periodActionProblem, periodActionsFor } from "./climate-approval";

const staff = { role: "staff", email: "staff@example.test" };
const reviewer = { role: "reviewer", email: "reviewer@example.test" };
const admin = { role: "admin", email: "admin@example.test" };
const computedBy = (email: string, approved = false) => ({ approved, computed_by: email });

describe("a climate period's approval (four eyes)", () => {
  it("is a reviewer's or an administrator's other than the person who computed the period", () => {
    expect(periodActionsFor(reviewer, computedBy(staff.email))).toEqual(["approve"]);
    expect(periodActionsFor(admin, computedBy(staff.email))).toEqual(["approve"]);
    expect(periodActionsFor(staff, computedBy(reviewer.email))).toEqual([]);
    expect(periodActionProblem("approve", staff, computedBy(reviewer.email))).toBe("может только проверяющий или администратор");
    expect(periodActionProblem("approve", reviewer, computedBy(reviewer.email))).toBe(
      "может только другой проверяющий или администратор: период рассчитали вы",
    );
  });

  it("is withdrawn by a reviewer other than the person who computed it, only while it stands", () => {
    expect(periodActionsFor(reviewer, computedBy(staff.email, true))).toEqual(["withdraw"]);
    expect(periodActionProblem("withdraw", admin, computedBy(admin.email, true))).toMatch(/период рассчитали вы/);
    expect(periodActionProblem("withdraw", reviewer, computedBy(staff.email))).toBe("невозможно: период не утвержден");
    expect(periodActionProblem("approve", admin, computedBy(staff.email, true))).toBe("невозможно: период уже утвержден");
  });
});
