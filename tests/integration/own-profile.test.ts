// One's own profile: a user sets their name and position and changes their password. The review
// trail, the comments and the passport name them by the name they have now (earlier steps
// included); the old password and the user's other sessions stop working, the browser that changed
// it goes on with the new session it got.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";
import { fieldName } from "@server/contract/field-names";

let h: Harness;
let me: { token: string; refresh: string; email: string };
let password: string;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const call = (method: string, path: string, token: string, body?: unknown) =>
  h.request(`/api/v1/${path}`, { method, token, ...(body === undefined ? {} : { json: body }) });

beforeAll(async () => {
  h = await createHarness();
  const user = await h.signedInUser("ООО «Свой профиль»");
  me = user;
  // The harness's users share one password.
  password = "correct-horse";
  expect((await signIn(h, me.email, password)).status).toBe(200);
  const pit = await json<{ id: string }>(await call("POST", "facilities/", me.token, { name: "Разрез «Профиль»", kind: "open_pit" }), 201);
  const project = await json<{ id: string }>(
    await call("POST", "projects/create_project/", me.token, {
      name: "Разрез 2025",
      start_date: "2025-01-01",
      end_date: "2025-12-31",
      facility: pit.id,
    }),
    201,
  );
  await json(
    await call("POST", "open_mining_ch4/", me.token, {
      name: "Метан разреза",
      project: project.id,
      volume: 3_100_000,
      dictionary_items: { get_open_mining_ch4: 1 },
    }),
    201,
  );
});

afterAll(() => h?.close());

describe("one's own name", () => {
  it("is set with the position on Профиль, and names the person in the trail, the comments and the passport, earlier steps included", async () => {
    const version = (await json<{ review: { version: number } }>(await call("GET", "inventory/?year=2025", me.token), 200)).review.version;
    await json(await call("POST", "inventory/2025/review/", me.token, { action: "send_to_review", version }), 200);
    await json(await call("POST", "inventory/2025/comments/", me.token, { text: "Проверьте объем добычи" }), 201);

    const tooLong = await json<{ detail: string }>(await call("PATCH", "users/me/", me.token, { first_name: "О".repeat(151) }), 400);
    expect(tooLong.detail).toBe(`${fieldName("first_name")}: не длиннее 150 символов`);
    const changed = await json<{ first_name: string; last_name: string; position: string; company: { name: string } }>(
      await call("PATCH", "users/me/", me.token, { first_name: " Ольга ", last_name: "Кузнецова", position: "Главный эколог" }),
      200,
    );
    expect(changed).toMatchObject({ first_name: "Ольга", last_name: "Кузнецова", position: "Главный эколог" });
    expect(changed.company.name).toBe("ООО «Свой профиль»");
    expect(await json(await call("GET", "users/get_me/", me.token), 200)).toMatchObject({
      first_name: "Ольга",
      position: "Главный эколог",
    });

    const inventory = await json<{ review: { history: Array<{ by: string; by_name?: string }> } }>(
      await call("GET", "inventory/?year=2025", me.token),
      200,
    );
    expect(inventory.review.history.map((s) => s.by_name)).toEqual(["Ольга Кузнецова"]);
    const comments = await json<{ results: Array<{ by: string; by_name?: string }> }>(
      await call("GET", "inventory/2025/comments/", me.token),
      200,
    );
    expect(comments.results).toEqual([expect.objectContaining({ by: me.email, by_name: "Ольга Кузнецова" })]);

    const file = await call("GET", "inventory/2025/report/?format=xlsx", me.token);
    expect(file.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await file.arrayBuffer()) as ArrayBuffer);
    const lines: string[] = [];
    workbook.getWorksheet("Паспорт")!.eachRow((row) => lines.push(String(row.getCell(2).value)));
    expect(lines).toContainEqual(expect.stringMatching(/: направлено на проверку \(Ольга Кузнецова\)$/));
  });
});

describe("one's own password", () => {
  it("needs the current one, and ends every other session: the old password and the other sessions stop working", async () => {
    const other = await json<{ access: string; refresh: string }>(await signIn(h, me.email, password), 200);
    const change = (body: unknown) => call("POST", "users/me/password/", me.token, body);
    expect((await json<{ detail: string }>(await change({ current_password: "не тот", new_password: "новый-пароль-1" }), 400)).detail).toBe(
      `${fieldName("current_password")}: текущий пароль указан неверно`,
    );
    expect((await json<{ detail: string }>(await change({ current_password: password, new_password: "корот" }), 400)).detail).toBe(
      `${fieldName("new_password")}: пароль не короче 8 символов`,
    );
    // Refused, the password is still the old one and the sessions go on.
    expect((await call("GET", "users/get_me/", other.access)).status).toBe(200);

    const fresh = await json<{ access: string; refresh: string }>(
      await change({ current_password: password, new_password: "новый-пароль-1" }),
      200,
    );
    expect((await call("GET", "users/get_me/", fresh.access)).status).toBe(200);
    // The other browser and this one's old tokens are signed out.
    expect((await call("GET", "users/get_me/", other.access)).status).toBe(401);
    expect((await call("GET", "users/get_me/", me.token)).status).toBe(401);
    expect((await h.request("/api/token/refresh/", { method: "POST", json: { refresh: other.refresh } })).status).toBe(401);
    expect((await h.request("/api/token/refresh/", { method: "POST", json: { refresh: fresh.refresh } })).status).toBe(200);
    expect((await signIn(h, me.email, password)).status).toBe(401);
    expect((await signIn(h, me.email, "новый-пароль-1")).status).toBe(200);
  });
});
