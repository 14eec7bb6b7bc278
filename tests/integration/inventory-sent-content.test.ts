// finding 3: four eyes over everything a version prints. With the year «На проверке» a
// reviewer changed the person responsible, a facility's licence number and a point's instrument,
// then approved: the version froze what the sender never saw. Now the send captures what the
// version would print; the reviewer reads those changes as «изменено после отправки», approving
// answers 409 naming them, and after a new send the version prints what that send captured.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let reviewer: string;
let facility: { id: string; version: number };
let point: { id: string; version: number };

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
type Review = { version: number; status: string; changed_after_send?: string[] };
const inventory = async (token: string) =>
  (await json<{ review: Review }>(await h.request("/api/v1/inventory/?year=2024", { token }), 200)).review;
const act = async (token: string, action: string, extra: Record<string, unknown> = {}) =>
  h.request("/api/v1/inventory/2024/review/", {
    method: "POST",
    token,
    json: { action, version: (await inventory(staff)).version, ...extra },
  });

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Четыре глаза»");
  staff = a.token;
  await createUser(h.deps, {
    companyId: a.companyId,
    email: "reviewer@four-eyes.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  reviewer = ((await (await signIn(h, "reviewer@four-eyes.example", "reviewer-password")).json()) as { access: string }).access;
  await json(
    await h.request("/api/v1/users/company/", { method: "PATCH", token: staff, json: { responsible_name: "Иванова Анна Петровна" } }),
    200,
  );
  facility = await json(
    await h.request("/api/v1/facilities/", {
      method: "POST",
      token: staff,
      json: { name: "Шахта «Северная»", kind: "underground_mine", licence_number: "КЕМ 01234 ТЭ" },
    }),
    201,
  );
  point = await json(
    await h.request(`/api/v1/facilities/${facility.id}/points/`, {
      method: "POST",
      token: staff,
      json: { name: "Факельная установка № 1", kind: "flare", instrument: "Расходомер ДРГ.М-2500", frequency: "непрерывно" },
    }),
    201,
  );
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: "Северная 2024", start_date: "2024-01-01", end_date: "2024-12-31", facility: facility.id },
    }),
    201,
  );
  await json(
    await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Факел", project: project.id, volume: 700, koef_transform: 0.67, inventory_role: "primary" },
    }),
    201,
  );
  await json(await act(staff, "send_to_review"), 200);
});
afterAll(() => h.close());

describe("a printed field changed while the year is in review", () => {
  it("is shown to the reviewer as changed after the send, field by field, before and after", async () => {
    expect((await inventory(reviewer)).changed_after_send).toBeUndefined();
    await json(
      await h.request("/api/v1/users/company/", { method: "PATCH", token: reviewer, json: { responsible_name: "Петров Сергей Ильич" } }),
      200,
    );
    facility = await json(
      await h.request(`/api/v1/facilities/${facility.id}/`, {
        method: "PATCH",
        token: reviewer,
        json: { licence_number: "КЕМ 99999 ТЭ", version: facility.version },
      }),
      200,
    );
    point = await json(
      await h.request(`/api/v1/facilities/${facility.id}/points/${point.id}/`, {
        method: "PATCH",
        token: reviewer,
        json: { instrument: "Счетчик СГ-16", version: point.version },
      }),
      200,
    );
    expect((await inventory(reviewer)).changed_after_send).toEqual([
      "Реквизиты, «Ответственный за отчет: ФИО»: было «Иванова Анна Петровна», стало «Петров Сергей Ильич»",
      "Площадка «Шахта «Северная»», «Номер лицензии»: было «КЕМ 01234 ТЭ», стало «КЕМ 99999 ТЭ»",
      "Источник выбросов «Факельная установка № 1», «Средство измерений»: было «Расходомер ДРГ.М-2500», стало «Счетчик СГ-16»",
    ]);
  });

  it("does not reach a version: approving answers 409 naming the changes and stores none", async () => {
    const res = await act(reviewer, "approve");
    expect(res.status).toBe(409);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toContain("«Утвердить» невозможно: после отправки на проверку изменено то, что печатает версия");
    expect(detail).toContain("Изменено после отправки: Реквизиты, «Ответственный за отчет: ФИО»");
    expect(detail).toContain("«Номер лицензии»: было «КЕМ 01234 ТЭ», стало «КЕМ 99999 ТЭ»");
    expect(await json(await h.request("/api/v1/inventory/2024/versions/", { token: staff }), 200)).toEqual([]);
    expect((await inventory(staff)).status).toBe("in_review");
  });

  it("is approved after a new send, and the version prints what that send captured", async () => {
    await json(await act(reviewer, "return_to_draft", { reason: "Реквизиты изменены после отправки" }), 200);
    expect((await inventory(reviewer)).changed_after_send).toBeUndefined();
    await json(await act(staff, "send_to_review"), 200);
    expect((await inventory(reviewer)).changed_after_send).toBeUndefined();
    await json(await act(reviewer, "approve"), 200);
    const snapshot = JSON.parse(await (await h.request("/api/v1/inventory/2024/versions/1/", { token: staff })).text()) as {
      legal_entity: {
        requisites: Record<string, string>;
        facilities: Array<Record<string, string>>;
        points: Array<Record<string, string>>;
      };
    };
    expect(snapshot.legal_entity.requisites.responsible_name).toBe("Петров Сергей Ильич");
    expect(snapshot.legal_entity.facilities[0].licence_number).toBe("КЕМ 99999 ТЭ");
    expect(snapshot.legal_entity.points[0].instrument).toBe("Счетчик СГ-16");
  });
});
