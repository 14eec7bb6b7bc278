import { describe, expect, it } from "vitest";
import {
  actionProblem,
  actionsFor,
  emissionPointKindInText,
  reviewDateProblem,
  senderOf,
  targetOf,
  thresholdBasis,
  thresholdVerdict,
  type InventoryStatus,
} from "./inventory";

const staff = { role: "staff", email: "staff@example.com" } as const;
const reviewer = { role: "reviewer", email: "reviewer@example.com" } as const;
const admin = { role: "admin", email: "admin@example.com" } as const;
const sentBy = (by: string) => [{ action: "send_to_review", by }];
const year = (status: InventoryStatus, history: { action: string; by: string; to?: string }[], more = {}) => ({ status, history, ...more });

describe("review actions on the inventory screen", () => {
  it("offers staff only sending to review, and the reviewer or admin the rest", () => {
    expect(actionsFor(staff, year("draft", []))).toEqual(["send_to_review"]);
    expect(actionsFor(staff, year("in_review", sentBy(staff.email)))).toEqual([]);
    expect(actionsFor(reviewer, year("in_review", sentBy(staff.email)))).toEqual(["return_to_draft", "approve"]);
    expect(actionsFor(staff, year("submitted", sentBy(staff.email)))).toEqual([]);
    expect(actionsFor(reviewer, year("submitted", sentBy(staff.email)))).toEqual(["accept", "refuse"]);
    expect(actionsFor(staff, year("approved", sentBy(staff.email)))).toEqual([]);
    expect(actionsFor(admin, year("approved", sentBy(staff.email)))).toEqual(["reopen", "submit"]);
    expect(actionsFor(reviewer, year("refused", []))).toEqual(["rework_done"]);
  });

  it("never offers approving, returning or reopening to the person who sent the version (four eyes)", () => {
    const history = [...sentBy(admin.email), { action: "return_to_draft", by: reviewer.email }, ...sentBy(reviewer.email)];
    expect(senderOf(history)).toBe(reviewer.email);
    expect(actionsFor(reviewer, year("in_review", history))).toEqual([]);
    expect(actionsFor(admin, year("in_review", history))).toEqual(["return_to_draft", "approve"]);
    expect(actionsFor(reviewer, year("approved", history))).toEqual(["submit"]);
  });

  it("never approves a version by the person who last changed its data, and sends a rework they changed for approval (D33)", () => {
    const edited = year("in_review", sentBy(staff.email), { last_changed_by: reviewer.email });
    expect(actionsFor(reviewer, edited)).toEqual(["return_to_draft"]);
    expect(actionProblem("approve", reviewer, edited)).toMatch(/последним изменяли вы/);
    expect(actionsFor(admin, edited)).toEqual(["return_to_draft", "approve"]);
    const rework = year("refused", [], { last_changed_by: staff.email, changed_by: [reviewer.email, staff.email] });
    expect(targetOf("rework_done", reviewer.email, rework)).toBe("in_review");
    expect(targetOf("rework_done", admin.email, rework)).toBe("reworked");
    expect(senderOf([...sentBy(staff.email), { action: "rework_done", by: reviewer.email, to: "in_review" }])).toBe(reviewer.email);
    expect(actionProblem("accept", staff, year("accepted", []))).toMatch(/невозможно в статусе «Отчет принят»/);
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

describe("thresholdBasis (D31)", () => {
  it("cites Decree 355 up to reporting year 2023 and Decree 1580 from 2024, 296-FZ in both", () => {
    expect(thresholdBasis(2023)).toBe("296-ФЗ, ст. 14, ч. 2–3; постановление Правительства РФ от 14.03.2022 № 355");
    expect(thresholdBasis(2024)).toBe("296-ФЗ, ст. 14, ч. 2–3; постановление Правительства РФ от 14.10.2025 № 1580");
    expect(thresholdBasis(2025)).toContain("№ 1580");
    const verdict = thresholdVerdict({ limit_t_co2e: 50_000, regulated: true, company_t_co2e: 60_000 }, 2025, String);
    expect(verdict).toBe(
      "Выбросы организации за год — 60000 т CO2-экв., не меньше порога 50000 т CO2-экв. (296-ФЗ, ст. 14, ч. 2–3; постановление Правительства РФ от 14.10.2025 № 1580): организация — регулируемая, отчет о выбросах обязателен",
    );
  });

  it("gives a year not yet whole no verdict below the threshold, only a provisional figure", () => {
    const below = { limit_t_co2e: 50_000, regulated: false, company_t_co2e: 4_000 };
    expect(thresholdVerdict(below, 2025, String, [{ code: "alternatives_excluded" }])).toMatch(/: организация не относится к регулируемым/);
    for (const code of ["source_period_gap", "missing_since_last_year"]) {
      const verdict = thresholdVerdict(below, 2025, String, [{ code }]);
      expect(verdict).toMatch(/^Предварительно: данные неполные\. Выбросы организации за год — 4000 т CO2-экв\., меньше порога/);
      expect(verdict).not.toContain("не относится к регулируемым");
    }
    // Over the threshold the verdict stands: more data only add to it.
    expect(thresholdVerdict({ ...below, regulated: true, company_t_co2e: 60_000 }, 2025, String, [{ code: "source_period_gap" }])).toMatch(
      /регулируемая, отчет о выбросах обязателен$/,
    );
  });
});

describe("an emission point's kind in a sentence (D25)", () => {
  it("lowers only the first letter, so abbreviations keep their capitals", () => {
    expect(emissionPointKindInText("boiler_engine")).toBe("котельная, ГПУ");
    expect(emissionPointKindInText("ventilation_shaft")).toBe("вентиляционный ствол (вентилятор)");
  });
});
