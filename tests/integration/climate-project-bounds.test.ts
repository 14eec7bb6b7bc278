// a climate project's start and end cannot be moved past its own periods (an approved
// one too): a change that would leave one outside is a 400 naming them; one that keeps them inside is
// written. Before, a project's start could be moved after its periods and its end before them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseAPeriod, type CaseAPeriod } from "../support/climate-case-a";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let token: string;
let a: CaseAPeriod;
beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО «Границы проекта»"));
  a = await caseAPeriod(h, token);
}, 120_000);
afterAll(() => h.close());

const patch = async (json: Record<string, unknown>) => {
  const current = (await (await h.request(`/api/v1/climate-projects/${a.project.id}/`, { token })).json()) as { version: number };
  return h.request(`/api/v1/climate-projects/${a.project.id}/`, { method: "PATCH", token, json: { ...json, version: current.version } });
};

describe("a project's bounds keep its periods", () => {
  it("refuses a start after a period's start and an end before a period's end, naming the period", async () => {
    const late = await patch({ start: "2026-06-02" });
    expect(late.status).toBe(400);
    expect(((await late.json()) as { detail: string }).detail).toBe(
      `${fieldName("start")}: проект не может начинаться позже своих периодов: 01.06.2026 00:00 – 01.06.2026 06:00`,
    );
    expect((await patch({ start: "2026-05-01" })).status).toBe(200);
    const early = await patch({ end: "2026-05-31" });
    expect(early.status).toBe(400);
    expect(((await early.json()) as { detail: string }).detail).toBe(
      `${fieldName("end")}: проект не может кончаться раньше своих периодов: 01.06.2026 00:00 – 01.06.2026 06:00`,
    );
  });

  it("takes bounds that keep the periods inside: an end on the period's day", async () => {
    const res = await patch({ end: "2026-06-01" });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()) as { start: string; end: string }).toMatchObject({ start: "2026-05-01", end: "2026-06-01" });
  });
});
