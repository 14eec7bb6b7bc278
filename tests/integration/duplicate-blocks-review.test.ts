// D19 through the API: the same source entered twice as primary (same type, same facility and
// year) is an error check «источник учтен дважды», and a year with an error check cannot be sent
// to review (409 naming the check); made alternative, the copy stops counting and the year goes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser("ООО Дважды"));
});
afterAll(() => h.close());

type Inventory = {
  total_t_co2e: number;
  checks: Array<{ code: string; level: string; message: string; calculations: string[] }>;
  review: { version: number; status: string };
};

describe("a source counted twice (D19)", () => {
  it("is an error that blocks sending the year to review until one copy is made alternative", async () => {
    const mine = await json<{ id: string }>(
      await h.request("/api/v1/facilities/", { method: "POST", token, json: { name: "Шахта «Дубль»", kind: "underground_mine" } }),
      201,
    );
    const project = await json<{ id: string }>(
      await h.request("/api/v1/projects/create_project/", {
        method: "POST",
        token,
        json: { name: "Дубль 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: mine.id },
      }),
      201,
    );
    const create = async (name: string) =>
      json<{ id: string; version: number; res_ch4_to_co2: number }>(
        await h.request("/api/v1/underground_emission_ch4/", {
          method: "POST",
          token,
          json: { name, project: project.id, volume: 1_000_000, ef: 18, koef_transform: 0.67 },
        }),
        201,
      );
    const first = await create("Добыча 2025");
    const copy = await create("Добыча 2025 (повтор)");
    const inventory = () => h.request("/api/v1/inventory/?year=2025", { token }).then((res) => json<Inventory>(res));

    const doubled = await inventory();
    const duplicate = doubled.checks.find((c) => c.code === "primary_duplicate")!;
    expect(duplicate).toMatchObject({ level: "error" });
    expect(duplicate.message).toMatch(/источник учтен дважды/);
    expect(duplicate.calculations.sort()).toEqual([first.id, copy.id].sort());

    const refused = await h.request("/api/v1/inventory/2025/review/", {
      method: "POST",
      token,
      json: { action: "send_to_review", version: doubled.review.version },
    });
    expect(refused.status).toBe(409);
    const { detail } = (await refused.json()) as { detail: string };
    expect(detail).toMatch(/^Инвентаризацию 2025 года нельзя отправить на проверку, пока в ней есть ошибки: /);
    expect(detail).toContain(duplicate.message);
    expect((await inventory()).review.status).toBe("draft");

    await json(
      await h.request(`/api/v1/underground_emission_ch4/${copy.id}/`, {
        method: "PATCH",
        token,
        json: { inventory_role: "alternative", version: copy.version },
      }),
    );
    const single = await inventory();
    expect(single.checks.filter((c) => c.level === "error")).toEqual([]);
    expect(single.total_t_co2e).toBeCloseTo(first.res_ch4_to_co2, 6);
    const sent = await json<{ status: string }>(
      await h.request("/api/v1/inventory/2025/review/", {
        method: "POST",
        token,
        json: { action: "send_to_review", version: single.review.version },
      }),
    );
    expect(sent.status).toBe("in_review");
  });
});
