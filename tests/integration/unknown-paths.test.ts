// an unknown path under v1/ is the router's 404 «Не найдено», whatever route's
// pattern catches it: `v1/:type/` once answered «Тип расчета telemetry не найден».
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  ({ token } = await h.signedInUser());
});
afterAll(() => h.close());

describe("unknown paths under v1/", () => {
  const cases: Array<[string, string]> = [
    ["GET", "/api/v1/telemetry/"],
    ["GET", "/api/v1/nothing-here/"],
    ["GET", "/api/v1/nothing-here/0123456789abcdef/"],
    ["POST", "/api/v1/nothing-here/"],
    ["PATCH", "/api/v1/nothing-here/0123456789abcdef/"],
    ["GET", "/api/v1/climate-projects/x/y/z/w/"],
  ];
  for (const [method, path] of cases) {
    it(`${method} ${path} answers 404 «Не найдено»`, async () => {
      const res = await h.request(path, { method, token, ...(method === "GET" ? {} : { json: { name: "x" } }) });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Не найдено" });
    });
  }
});
