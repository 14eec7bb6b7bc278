// a climate period's report file (PDF, xlsx) and an abatement assessment's are
// rendered in a heavy-work slot of the user and the company (past the budgets 429 at once) and in
// the company's turn (one of its files at a time), as exports are: 12 of one company's report PDFs in
// flight took every spreadsheet thread, and another company's own 0,4 s report took 15,6 s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeHeavySlot } from "@server/domain/heavy-work";
import { caseAPeriod, type CaseAPeriod } from "../support/climate-case-a";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let one: Awaited<ReturnType<Harness["signedInUser"]>>;
let other: Awaited<ReturnType<Harness["signedInUser"]>>;
let a: CaseAPeriod;
let b: CaseAPeriod;
const reportPath = (p: CaseAPeriod) => `/api/v1/climate-projects/${p.project.id}/periods/${p.period.id}/report/?format=pdf`;

beforeAll(async () => {
  h = await createHarness();
  one = await h.signedInUser("Отчеты одной компании");
  other = await h.signedInUser("Отчет другой компании");
  a = await caseAPeriod(h, one.token);
  b = await caseAPeriod(h, other.token);
}, 120_000);
afterAll(() => h.close());

describe("report files in the heavy-work slot and the company's turn", () => {
  it("with the user's slots taken, a report PDF is refused 429", async () => {
    const held = [
      await takeHeavySlot(h.deps, { id: one.userId, company: one.companyId }),
      await takeHeavySlot(h.deps, { id: one.userId, company: one.companyId }),
    ];
    try {
      const res = await h.request(reportPath(a), { token: one.token });
      expect(res.status).toBe(429);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/у пользователя не более 2/);
    } finally {
      await Promise.all(held.map((release) => release()));
    }
  });

  it("one company's second report waits for its first, another company's is rendered at once", async () => {
    const spreadsheets = h.deps.spreadsheets;
    const render = spreadsheets.climateReportFile.bind(spreadsheets);
    const rendering: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    spreadsheets.climateReportFile = async (report, format, issued) => {
      rendering.push(report.file_name);
      await gate;
      return render(report, format, issued);
    };
    try {
      const first = h.request(reportPath(a), { token: one.token });
      const second = h.request(reportPath(a), { token: one.token });
      await expect.poll(() => rendering.length).toBe(1);
      const another = h.request(reportPath(b), { token: other.token });
      await expect.poll(() => rendering.length).toBe(2);
      // Company one's second is still waiting for its turn.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(rendering.length).toBe(2);
      open();
      const answers = await Promise.all([first, second, another]);
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
      expect(rendering.length).toBe(3);
      for (const res of answers) expect(res.headers.get("content-type")).toBe("application/pdf");
    } finally {
      spreadsheets.climateReportFile = render;
    }
  });
});
