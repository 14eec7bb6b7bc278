// Caps that hold under concurrency (docs/security.md, «Caps»): the active forecasts of a project
// and the comments of a year are counted by a conditional counter item, so parallel requests past
// the cap are refused instead of each reading room that the others then take.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FORECASTS_PER_PROJECT } from "@server/domain/heavy-work";
import { COMMENTS_PER_YEAR } from "@server/domain/inventory/comments";
import { newId } from "@server/domain/ids";
import type { Harness } from "../support/harness";
import { openProjectFixture, type SignedInUser } from "../support/project-fixture";
import type { Project } from "@server/contract/schemas/project";
import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { dynamoCaps } from "@server/adapters/dynamodb/cap-counter";
import { LOCAL_TABLE } from "@server/local/storage";

let h: Harness;
let user: SignedInUser;
let project: Project;

beforeAll(async () => {
  ({ h, user, project } = await openProjectFixture("Лава"));
});
afterAll(() => h.close());

const createForecast = (name: string, projectId = project.id) =>
  h.request("/api/v1/regres_methane/", {
    method: "POST",
    token: user.token,
    json: { name, project: projectId, method: "xgboost", data: [{ x1: 1, x2: 2, x7: 3, x8: 4, x12: 0.4, x13: 9000, x15: 17 }] },
  });

const setArchived = (id: string, version: number, archived: boolean) =>
  h.request(`/api/v1/regres_methane/${id}/`, { method: "PATCH", token: user.token, json: { is_deleted: archived, version } });

describe("the active forecasts of a project", () => {
  it("admit exactly the cap of 24 parallel creates, and an archived one gives its place back", async () => {
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => createForecast(`Прогноз ${i + 1}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_FORECASTS_PER_PROJECT);
    expect(statuses.filter((s) => s === 400)).toHaveLength(24 - MAX_FORECASTS_PER_PROJECT);
    const refused = answers[statuses.indexOf(400)];
    expect(((await refused.json()) as { detail: string }).detail).toContain(`не более ${MAX_FORECASTS_PER_PROJECT} действующих прогнозов`);
    const listed = await h.request(`/api/v1/regres_methane/?project=${project.id}&limit=100`, { token: user.token });
    expect(((await listed.json()) as { count: number }).count).toBe(MAX_FORECASTS_PER_PROJECT);

    const first = (await answers[statuses.indexOf(201)].json()) as { id: string; version: number };
    expect((await setArchived(first.id, first.version, true)).status).toBe(200);
    const next = await createForecast("На место архивного");
    expect(next.status).toBe(201);
    // Full again: the archived one cannot come back.
    const restore = await setArchived(first.id, first.version + 1, false);
    expect(restore.status).toBe(400);
    expect((await createForecast("Лишний")).status).toBe(400);
  });
});

describe("a cap's first counter", () => {
  it("lets in a writer that finds the counter made by another between its refusal and its look", async () => {
    const doc = h.doc!;
    let beside: (() => Promise<unknown>) | undefined;
    // The writer's look at the counter waits until the other writer has made it and taken a place.
    const looking = {
      send: async (command: unknown) => {
        if (command instanceof GetCommand && beside) {
          const other = beside;
          beside = undefined;
          await other();
        }
        return doc.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    const caps = dynamoCaps(looking, LOCAL_TABLE);
    const other = dynamoCaps(doc, LOCAL_TABLE);
    const name = `TEST#${newId()}`;
    beside = () => other.take(user.companyId, name, 3, async () => 0);
    expect(await caps.take(user.companyId, name, 3, async () => 0)).toBe(true);
    expect(await other.take(user.companyId, name, 3, async () => 0)).toBe(true);
    // Full: the fourth is refused.
    expect(await other.take(user.companyId, name, 3, async () => 0)).toBe(false);
  });
});

describe("the comments of a year", () => {
  it("stay within the cap when parallel comments pass it, and a deleted one gives its place back", async () => {
    const year = 2024;
    // Comments stored before the cap had its counter: the counter starts from them.
    for (let from = 0; from < COMMENTS_PER_YEAR - 5; from += 50) {
      const batch = Array.from({ length: Math.min(50, COMMENTS_PER_YEAR - 5 - from) }, (_, i) => from + i + 1);
      await Promise.all(
        batch.map((n) =>
          h.deps.repos.inventoryComments.add({
            id: newId(),
            company: user.companyId,
            year,
            target: null,
            text: `Замечание ${n}`,
            by: user.email,
            at: new Date().toISOString(),
          }),
        ),
      );
    }
    const post = (text: string) => h.request(`/api/v1/inventory/${year}/comments/`, { method: "POST", token: user.token, json: { text } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`Параллельное ${i + 1}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    const count = async () =>
      ((await (await h.request(`/api/v1/inventory/${year}/comments/?limit=1`, { token: user.token })).json()) as { count: number }).count;
    expect(await count()).toBe(COMMENTS_PER_YEAR);

    const made = (await answers[statuses.indexOf(201)].json()) as { id: string };
    expect((await h.request(`/api/v1/inventory/${year}/comments/${made.id}/`, { method: "DELETE", token: user.token })).status).toBe(200);
    const again = await Promise.all([post("Еще одно"), post("И еще")]);
    expect(again.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(await count()).toBe(COMMENTS_PER_YEAR);
  });
});
