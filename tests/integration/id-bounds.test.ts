// An id longer than any of ours (a storage key has a size limit: past it a lookup fails instead of
// finding nothing) is a 400 naming the field, on every declared route with a path part and in the
// bodies and queries that name a project, a point, a model or a company (docs/security.md,
// ID_MAX_LENGTH). Before, ids over about 1 010 characters answered 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "@server/http/openapi";
import { ID_MAX_LENGTH } from "@server/contract/schemas/common";
import { fieldName } from "@server/contract/field-names";
import { createHarness, type Harness } from "../support/harness";
import { signedInAdmin } from "../support/admin";

let h: Harness;
let user: string;
let admin: string;
let project: string;
const LONG = "a".repeat(2000);

beforeAll(async () => {
  h = await createHarness();
  user = (await h.signedInUser("ООО «Длинные идентификаторы»")).token;
  admin = (await signedInAdmin(h)).token;
  project = (await h.newProject(user, "Проект")).id;
});
afterAll(() => h.close());

const detailOf = async (res: Response) => ((await res.json()) as { detail: string }).detail;

describe(`an id longer than ${ID_MAX_LENGTH} characters`, () => {
  it("in a path is a 400 naming the part, on every declared route that has one", async () => {
    const withParts = OPERATIONS.filter((op) => op.path.includes("/:") && op.auth !== "public");
    expect(withParts.length).toBeGreaterThan(40);
    for (const op of withParts) {
      const parts = [...op.path.matchAll(/:(\w+)(\{[^}]*\})?/g)];
      // A part with a pattern (`:action{export_to_[^\x2f]*}`) names no id: it is filled as the pattern wants.
      for (const [, part] of parts.filter(([, , pattern]) => !pattern)) {
        // The other parts as a valid-looking value, and the queries some routes require (a project,
        // a facility, a sensor's year, month or day, a file's format), so that the long one is what is refused.
        const path =
          op.path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string, pattern?: string) =>
            pattern ? pattern.slice(1, -1).replace("[^\\x2f]*", "xlsx") : name === part ? LONG : "underground",
          ) + `/?project=${project}&facility=underground&year=2026&month=2026-03&date=2026-03-15&format=xlsx`;
        const res = await h.request(path, {
          method: op.method.toUpperCase(),
          token: op.auth === "admin" ? admin : user,
          ...(["get", "delete"].includes(op.method.toLowerCase()) ? {} : { json: {} }),
        });
        const label = `${op.method.toUpperCase()} ${op.path} (${part})`;
        // A calculation type the registry does not know is an unknown path.
        if (part === "type" && res.status === 404) {
          expect(await detailOf(res), label).toBe("Не найдено");
          continue;
        }
        // An upload route refuses a body without its length or type first (411, 415), before any read.
        expect([400, 411, 415], label).toContain(res.status);
        if (res.status !== 400) continue;
        // «id: не длиннее 128 символов», or a part that must be a number says so.
        expect(await detailOf(res), label).toMatch(
          new RegExp(`(^|; )${fieldName(part)}: (не длиннее ${ID_MAX_LENGTH} символов|ожидается)`),
        );
      }
    }
  }, 120_000);

  it("in a body or a query is a 400 naming the field", async () => {
    const cases: Array<[string, RequestInit & { json?: unknown; token: string }, string]> = [
      ["/api/v1/underground/", { method: "POST", token: user, json: { name: "Расчет", project: LONG, volume: 1 } }, "project"],
      [
        "/api/v1/underground/",
        { method: "POST", token: user, json: { name: "Расчет", project, point: LONG, volume: 1, ef_ch4: 0.5 } },
        "point",
      ],
      [`/api/v1/underground/?project=${LONG}`, { token: user }, "project"],
      [
        "/api/v1/forecast/what_if/",
        { method: "POST", token: user, json: { model: LONG, row: {}, vary: { feature: "x1", from: 0, to: 1 } } },
        "model",
      ],
    ];
    for (const [path, init, field] of cases) {
      const res = await h.request(path, init);
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(await detailOf(res), `${path} ${field}`).toContain(`${fieldName(field)}: идентификатор не длиннее ${ID_MAX_LENGTH} символов`);
    }
  });
});
