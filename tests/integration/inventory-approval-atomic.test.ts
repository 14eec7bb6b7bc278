// D32: approval is atomic with respect to writes (domain/inventory/writes.ts), step by step: a
// step that freezes the year waits for a write begun before it, refuses one begun while it waits,
// and answers only once the write begun has ended; after it, a write of the year is refused as
// frozen. inventory-approval-race.deep.test.ts races real saves against real approvals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beginYearWrite, withYearWrites } from "@server/domain/inventory/writes";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let companyId: string;
let email: string;
let calc: { id: string; version: number };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const edit = (volume: number) =>
  h.request(`/api/v1/torch_ch4/${calc.id}/`, { method: "PATCH", token: staff, json: { volume, version: calc.version } });

beforeAll(async () => {
  h = await createHarness();
  ({ token: staff, companyId, email } = await h.signedInUser("ООО «Атомарно»"));
  const project = await h.newProject(staff, "Атомарно 2024");
  calc = await json(
    await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Факел", project: project.id, volume: 700, koef_transform: 0.67, inventory_role: "primary" },
    }),
    201,
  );
});
afterAll(() => h.close());

describe("a step that freezes the year", () => {
  it("waits for a write begun before it, refuses one begun meanwhile, and answers once the first has ended", async () => {
    const year = (await json<{ review: { version: number } }>(await h.request("/api/v1/inventory/?year=2024", { token: staff }), 200))
      .review;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // A write of the year, begun and not yet ended (its request is still working).
    let begun!: () => void;
    const started = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const inFlight = withYearWrites(h.deps, async () => {
      expect(await beginYearWrite(h.deps, { company: companyId, email }, 2024)).toBe(true);
      begun();
      await gate;
    });
    await started;
    let answered = false;
    const send = h
      .request("/api/v1/inventory/2024/review/", {
        method: "POST",
        token: staff,
        json: { action: "send_to_review", version: year.version },
      })
      .then((res) => {
        answered = true;
        return res;
      });
    // The step holds the year's writes: a save now is refused, saying why.
    let refused: Response | undefined;
    for (;;) {
      refused = await edit(701);
      if (refused.status === 409) break;
      calc = (await refused.json()) as typeof calc;
    }
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      "Инвентаризацию 2024 года сейчас отправляют на проверку или утверждают: расчеты проектов этого года изменить нельзя. Обновите страницу и повторите",
    );
    expect(answered).toBe(false);
    open();
    await inFlight;
    const review = await json<{ status: string }>(await send, 200);
    expect(review.status).toBe("in_review");
    // Frozen now: refused as such.
    const after = await edit(702);
    expect(after.status).toBe(409);
    expect(((await after.json()) as { detail: string }).detail).toMatch(/^Инвентаризация 2024 года на проверке и заморожена/);
  });

  it("waits for a saved calculation until the table's stream has counted its write ended", async () => {
    const project = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token: staff,
        json: { name: "Атомарно 2025", start_date: "2025-01-01", end_date: "2025-12-31" },
      }),
      201,
    );
    const created = await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Факел 2025", project: project.id, volume: 700, koef_transform: 0.67, inventory_role: "primary" },
    });
    expect(created.status).toBe(201);
    // Answered: stored, its write counted begun on 2025 and handed to the stream, which ends it.
    const reviews = h.deps.repos.inventoryReviews;
    const before = await reviews.writeCounts(companyId, 2025);
    expect(before.begun).toBe(1);
    await h.settled();
    expect(await reviews.writeCounts(companyId, 2025)).toMatchObject({ begun: 1, ended: 1 });
    // A write not handed to the stream (refused, or not a calculation's) is ended by its request.
    await withYearWrites(h.deps, async () => {
      expect(await beginYearWrite(h.deps, { company: companyId, email }, 2025)).toBe(true);
    });
    expect(await reviews.writeCounts(companyId, 2025)).toMatchObject({ begun: 2, ended: 2 });
  });
});
