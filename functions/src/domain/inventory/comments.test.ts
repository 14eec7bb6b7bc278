// a comment's target is resolved within the company: a line of the year
// (`category|ipcc_code|gas`) or one of the company's calculations; another company's calculation
// or a path is 404 (it was stored, 201). On the in-memory repositories.
import { beforeAll, describe, expect, it } from "vitest";
import { clockAt, memoryDomain, type MemoryDomain } from "../../../../tests/support/memory-domain";
import type { Actor } from "../context";
import { NotFound } from "../errors";
import { addComment } from "./comments";

let d: MemoryDomain;
let staff: Actor;
let other: Actor;
let own: { id: string };
let foreign: { id: string };

beforeAll(async () => {
  d = await memoryDomain(clockAt("2026-11-16T03:00:00Z"));
  staff = await d.actor("ООО «Комментарии»");
  other = await d.actor("ООО «Чужая»");
  const calc = async (actor: Actor) => {
    const project = await d.project(actor, { name: "Факелы 2025", start_date: "2025-01-01", end_date: "2025-12-31" });
    return d.calc(actor, "torch_ch4", { name: "Факел", project: project.id, volume: 700, koef_transform: 0.67 });
  };
  own = await calc(staff);
  foreign = await calc(other);
}, 60_000);

describe("a comment's target", () => {
  it("is a line of the year or a calculation of the company", async () => {
    expect((await addComment(d.deps, staff, 2025, { target: "3|1.B.1.a.i.1|CH4", text: "Сверить" })).target).toBe("3|1.B.1.a.i.1|CH4");
    expect((await addComment(d.deps, staff, 2025, { target: own.id, text: "Проверить объем" })).target).toBe(own.id);
    expect((await addComment(d.deps, staff, 2025, { target: null, text: "Общий" })).target).toBeNull();
  });

  it("is 404 for another company's calculation, a path or anything else", async () => {
    for (const target of [foreign.id, "../../etc/passwd", "3|1.B.1.a.i.1|CH4; DROP", "01a219c2-2154-779d-b43f-25ce6ab96599"]) {
      await expect(addComment(d.deps, staff, 2025, { target, text: "Нет" }), target).rejects.toBeInstanceOf(NotFound);
    }
  });
});
