// D32, D33: a year in review is frozen like an approved one; a version is approved only by a
// reviewer other than its sender and the last person who changed its data, also in rework after a
// return from the authority («Доработка завершена» by one who changed the data sends the year for
// approval); an administrator's GWP re-dating into a frozen year is refused and moves no figure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn, signedInAdmin } from "../support/admin";
import { createFreshHarness, type Harness } from "../support/harness";
import type { CalculationView } from "@server/contract";
import type { Actor } from "@server/domain/context";
import { wholeYearAnswer } from "@server/domain/inventory/whole-year";

let h: Harness;
let staff: string;
const reviewers: Record<"r1" | "r2" | "r3", string> = { r1: "", r2: "", r3: "" };
let admin: string;
let calc: CalculationView;
let projectId: string;

type Review = { version: number; status: string; history: Array<{ action: string; to: string; by: string }> };
type Inventory = { total_t_co2e: number; review: Review };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const detail = async (res: Response, status: number) => (await json<{ detail: string }>(res, status)).detail;

const inventory = async () => json<Inventory>(await h.request("/api/v1/inventory/?year=2024", { token: staff }), 200);
const act = async (token: string, action: string, extra: Record<string, unknown> = {}) => {
  const { review } = await inventory();
  return h.request("/api/v1/inventory/2024/review/", { method: "POST", token, json: { action, version: review.version, ...extra } });
};
const editCalc = (token: string, volume: number) =>
  h.request(`/api/v1/torch_ch4/${calc.id}/`, { method: "PATCH", token, json: { volume, version: calc.version } });
const versions = async () =>
  json<Array<{ version: number; approved_by: string }>>(await h.request("/api/v1/inventory/2024/versions/", { token: staff }), 200);

beforeAll(async () => {
  // A table of its own: the admin re-dates a GWP set of the whole platform.
  h = await createFreshHarness();
  const a = await h.signedInUser("ООО «Четыре глаза»");
  staff = a.token;
  for (const name of ["r1", "r2", "r3"] as const) {
    const email = `${name}@four-eyes.example`;
    await createUser(h.deps, { companyId: a.companyId, email, password: "reviewer-password", role: "reviewer" });
    reviewers[name] = ((await (await signIn(h, email, "reviewer-password")).json()) as { access: string }).access;
  }
  admin = (await signedInAdmin(h)).token;
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: "Шахта 2024", start_date: "2024-01-01", end_date: "2024-12-31" },
    }),
    201,
  );
  projectId = project.id;
  calc = await json(
    await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Факел", project: projectId, volume: 912.25, koef_transform: 0.67, inventory_role: "primary" },
    }),
    201,
  );
});
afterAll(() => h.close());

describe("a year in review", () => {
  it("refuses a change of its data with 409 saying a reviewer must return it first, and the list says why nothing can be added", async () => {
    await json(await act(staff, "send_to_review"), 200);
    expect(await detail(await editCalc(staff, 1000), 409)).toMatch(
      /^Инвентаризация 2024 года на проверке и заморожена .*попросите проверяющего вернуть ее на доработку$/,
    );
    const created = await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Второй факел", project: projectId, volume: 5, koef_transform: 0.67, inventory_role: "primary" },
    });
    expect(await detail(created, 409)).toMatch(/на проверке/);
    const list = await json<{ locked?: string }>(
      await h.request(`/api/v1/torch_ch4/?project=${projectId}&is_active=true&is_deleted=false`, { token: staff }),
      200,
    );
    expect(list.locked).toMatch(/вернуть ее на доработку/);

    await json(await act(reviewers.r1, "return_to_draft", { reason: "Уточнить объем" }), 200);
    calc = await json(await editCalc(staff, 1000), 200);
  });
});

describe("four eyes", () => {
  it("never lets the sender or the last person who changed the data approve", async () => {
    calc = await json(await editCalc(reviewers.r1, 950), 200);
    await json(await act(reviewers.r2, "send_to_review"), 200);
    expect(await detail(await act(reviewers.r2, "approve"), 403)).toMatch(/^«Утвердить» может только другой .*сами отправили/);
    expect(await detail(await act(reviewers.r1, "approve"), 403)).toMatch(/^«Утвердить» может только другой .*последним изменяли вы/);
    expect((await versions()).length).toBe(0);
    await json(await act(reviewers.r3, "approve"), 200);
    expect(await versions()).toEqual([expect.objectContaining({ version: 1, approved_by: "r3@four-eyes.example" })]);
  });

  it("sends a rework changed by the reviewer who finishes it for approval instead of approving it alone", async () => {
    await json(await act(reviewers.r1, "submit"), 200);
    await json(await act(reviewers.r1, "refuse", { reason: "Замечания", notice_date: "2025-04-01" }), 200);
    calc = await json(await editCalc(reviewers.r1, 2000), 200);
    const review = await json<Review>(await act(reviewers.r1, "rework_done"), 200);
    expect(review.status).toBe("in_review");
    expect(review.history.at(-1)).toMatchObject({ action: "rework_done", to: "in_review", by: "r1@four-eyes.example" });
    expect((await versions()).length).toBe(1);
    // In review again: frozen, and its sender cannot approve it.
    expect((await editCalc(reviewers.r1, 2100)).status).toBe(409);
    expect(await detail(await act(reviewers.r1, "approve"), 403)).toMatch(/сами отправили/);
    await json(await act(reviewers.r2, "approve"), 200);
    expect((await versions()).map((v) => [v.version, v.approved_by])).toEqual([
      [1, "r3@four-eyes.example"],
      [2, "r2@four-eyes.example"],
    ]);
  });

  it("lets a reviewer who changed nothing in rework finish it, approving the next version", async () => {
    await json(await act(reviewers.r1, "submit"), 200);
    await json(await act(reviewers.r1, "refuse", { reason: "Еще замечания", notice_date: "2025-05-01" }), 200);
    calc = await json(await editCalc(staff, 1900), 200);
    const review = await json<Review>(await act(reviewers.r3, "rework_done"), 200);
    expect(review.status).toBe("reworked");
    expect((await versions()).at(-1)).toMatchObject({ version: 3, approved_by: "r3@four-eyes.example" });
  });
});

describe("an administrator's GWP edit (D41)", () => {
  it("that would reach the frozen year answers 409 naming the year, and the year's figures do not move", async () => {
    const before = await inventory();
    const years = await json(await h.request("/api/v1/inventory/years/", { token: staff }), 200);
    const edit = (set: number, field: string, value: number, effective_from: string, version: number) =>
      h.request(`/api/v1/admin/dictionary/get_gwp/${set}/`, {
        method: "PATCH",
        token: admin,
        json: { field, value, effective_from, reason: "Новое распоряжение", version },
      });
    const refusal =
      /^Набор ПГП, действующий для 2024 года, изменить нельзя: инвентаризации заморожены — 2024 год: «ООО «Четыре глаза»», статус «Доработана»\. Укажите дату «Действует с» в году после 2024/;
    // A re-dating, a value and the end of a set's years, each from 2024 on.
    expect(await detail(await edit(2, "year_from", 2024, "2024-01-01", 1), 409)).toMatch(refusal);
    expect(await detail(await edit(1, "gwp_ch4", 28, "2024-01-01", 1), 409)).toMatch(refusal);
    expect(await detail(await edit(1, "year_to", 2023, "2024-01-01", 1), 409)).toMatch(refusal);
    expect((await inventory()).total_t_co2e).toBe(before.total_t_co2e);
    expect(await json(await h.request("/api/v1/inventory/years/", { token: staff }), 200)).toEqual(years);
    // An edit that reaches no frozen year is taken: a re-dating to 2030, a value from 2025 on.
    await json(await edit(2, "year_from", 2030, "2024-01-01", 1), 200);
    await json(await edit(1, "gwp_ch4", 28, "2025-01-01", 1), 200);
    expect((await inventory()).total_t_co2e).toBe(before.total_t_co2e);
    expect(await json(await h.request("/api/v1/inventory/years/", { token: staff }), 200)).toEqual(years);
  });
});

describe("the review's steps off the request thread", () => {
  it("are taken where the host's threads compute the year's answers, with the same answers and refusals", async () => {
    const project = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token: staff,
        json: { name: "Шахта 2023", start_date: "2023-01-01", end_date: "2023-12-31" },
      }),
      201,
    );
    await json(
      await h.request("/api/v1/torch_ch4/", {
        method: "POST",
        token: staff,
        json: { name: "Факел 2023", project: project.id, volume: 800, koef_transform: 0.67, inventory_role: "primary" },
      }),
      201,
    );
    // A send folded the year twice (its checks, its snapshot) on the request thread: 35,5 and 53,8 ms at
    // load 10 and 13,5 on the demo year in the loop budget.
    const spreadsheets = h.deps.spreadsheets;
    const before = spreadsheets.wholeYear;
    const asked: string[] = [];
    spreadsheets.wholeYear = async (actor, read) => {
      asked.push(read.read === "review" ? `${read.year} ${read.request.action}` : read.read);
      return wholeYearAnswer(h.deps, actor as Actor, read);
    };
    try {
      const year = async () => (await json<Inventory>(await h.request("/api/v1/inventory/?year=2023", { token: staff }), 200)).review;
      const step = (token: string, action: string, version: number) =>
        h.request("/api/v1/inventory/2023/review/", { method: "POST", token, json: { action, version } });
      const draft = await year();
      expect(await json<Review>(await step(staff, "send_to_review", draft.version), 200)).toMatchObject({ status: "in_review" });
      // A refusal comes back as the domain gives it: a stale version, a sender approving.
      expect(await detail(await step(staff, "send_to_review", draft.version), 409)).toBeTruthy();
      const sent = await year();
      expect(await detail(await step(staff, "approve", sent.version), 403)).toMatch(/^«Утвердить»/);
      expect(await json<Review>(await step(reviewers.r3, "approve", sent.version), 200)).toMatchObject({ status: "approved" });
      expect(asked.filter((a) => a.startsWith("2023"))).toEqual([
        "2023 send_to_review",
        "2023 send_to_review",
        "2023 approve",
        "2023 approve",
      ]);
      const approved = await json<Array<{ version: number }>>(await h.request("/api/v1/inventory/2023/versions/", { token: staff }), 200);
      expect(approved).toEqual([expect.objectContaining({ version: 1 })]);
    } finally {
      spreadsheets.wholeYear = before;
    }
  });
});
