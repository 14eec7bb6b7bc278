// Optimistic locking under concurrent writers: for every version exactly one PATCH wins, the
// others get 409, and the stored calculation is always the winner's (no lost update).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import type { Project } from "@server/contract/schemas/project";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Гонка"));
});
afterAll(() => h.close());

describe("concurrent PATCHes", () => {
  it("give exactly one success per version and lose no update", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 2, max: 8 }), { minLength: 1, maxLength: 3 }), async (rounds) => {
        const created = await h.request("/api/v1/torch_ch4/", {
          method: "POST",
          token: user.token,
          json: { name: "Факел", project: project.id, volume: 1, koef_transform: 0.67 },
        });
        const calc = (await created.json()) as { id: string; version: number };
        let version = calc.version;
        for (const writers of rounds) {
          const volumes = Array.from({ length: writers }, (_, i) => 10 * version + i + 1);
          const answers = await Promise.all(
            volumes.map((volume) =>
              h.request(`/api/v1/torch_ch4/${calc.id}/`, { method: "PATCH", token: user.token, json: { volume, version } }),
            ),
          );
          const statuses = answers.map((a) => a.status);
          expect(statuses.filter((s) => s === 200)).toHaveLength(1);
          expect(statuses.filter((s) => s === 409)).toHaveLength(writers - 1);
          const winner = (await answers[statuses.indexOf(200)].json()) as { volume: number; version: number };
          const stored = (await (await h.request(`/api/v1/torch_ch4/${calc.id}/single_calc/1/`, { token: user.token })).json()) as {
            volume: number;
            version: number;
          };
          expect(stored).toMatchObject({ volume: winner.volume, version: version + 1 });
          version += 1;
        }
      }),
      { numRuns: 15, seed: 20261121 },
    );
  });

  it("applies concurrent PATCHes to different projects independently", async () => {
    const projects = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        h
          .request("/api/v1/projects/create_project/", {
            method: "POST",
            token: user.token,
            json: { name: `Параллельный ${i}`, start_date: "2024-01-01", end_date: "2024-12-31" },
          })
          .then((r) => r.json() as Promise<Project>),
      ),
    );
    const answers = await Promise.all(
      projects.map((p) =>
        h.request(`/api/v1/projects/${p.id}/`, { method: "PATCH", token: user.token, json: { name: `${p.name}!`, version: 1 } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(projects.map(() => 200));
  });
});
