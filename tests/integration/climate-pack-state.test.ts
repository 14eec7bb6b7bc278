// a climate period's pack job is reused only while the period's state is the same —
// its figures, its report (the executor's fields) and its signatures: a done pack job was served after
// the report was edited, its manifest.json matching neither the new signatures/payload nor the report,
// so the executor's КЭП over the payload did not sign the pack. The manifest of the pack served is the
// payload, byte for byte.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportJob } from "@server/domain/export-jobs";
import { releaseHeavySlots } from "@server/domain/heavy-work";
import { NotFound } from "@server/domain/errors";
import type { Actor } from "@server/domain/context";
import type { ExportJobState } from "@server/export/formats";
import { caseAPeriod, type CaseAPeriod } from "../support/climate-case-a";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let user: Awaited<ReturnType<Harness["signedInUser"]>>;
let a: CaseAPeriod;
let base: string;

beforeAll(async () => {
  h = await createHarness();
  user = await h.signedInUser("ООО «Пакет по состоянию»");
  a = await caseAPeriod(h, user.token);
  base = `/api/v1/climate-projects/${a.project.id}/periods/${a.period.id}/`;
}, 120_000);
afterAll(() => h.close());

/** The job the host would answer for the period's pack now: every job done at once (its file kept). */
async function packJob(jobs: Map<string, ExportJobState>): Promise<string> {
  const actor: Actor = { id: user.userId, company: user.companyId, email: user.email, role: "staff" } as Actor;
  const deps = {
    ...h.deps,
    spreadsheets: {
      ...h.deps.spreadsheets,
      jobStatus: async (_: unknown, job: string) => {
        const state = jobs.get(job);
        if (!state) throw new NotFound("Задание не найдено");
        return state;
      },
    },
  };
  const request = { op: "climate_pack" as const, project: a.project.id, period: a.period.id, partBytes: 100_000_000 };
  const state = await exportJob(deps, actor, request, async (ticket) => {
    jobs.set(ticket.id, { job: ticket.id, state: "done", progress: 100 });
    await releaseHeavySlots(h.deps, ticket.slots);
    return { kind: "job", job: jobs.get(ticket.id)! };
  });
  return state.job;
}

describe("a pack keyed by the period's state", () => {
  it("a done pack job is reused while nothing changed, and a new pack is made after the report is edited", async () => {
    const jobs = new Map<string, ExportJobState>();
    const first = await packJob(jobs);
    expect(await packJob(jobs)).toBe(first);
    const report = (await (await h.request(`${base}report/`, { token: user.token })).json()) as { version: number };
    const edited = await h.request(`${base}report/`, {
      method: "PATCH",
      token: user.token,
      json: { fields: { s2_description: "Уничтожение метана на факеле Ф-1" }, version: report.version },
    });
    expect(edited.status, await edited.clone().text()).toBe(200);
    const after = await packJob(jobs);
    expect(after).not.toBe(first);
    expect(await packJob(jobs)).toBe(after);
  });

  it("the manifest of the pack served is signatures/payload, byte for byte", async () => {
    const pack = await h.request(`${base}pack/`, { token: user.token });
    expect(pack.status, await pack.clone().text()).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "pack-state-"));
    writeFileSync(join(dir, "pack.zip"), new Uint8Array(await pack.arrayBuffer()));
    const out = spawnSync("python3", ["-m", "zipfile", "-e", join(dir, "pack.zip"), join(dir, "pack")], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const payload = await h.request(`${base}signatures/payload/`, { token: user.token });
    expect(payload.status).toBe(200);
    const signed = Buffer.from(await payload.arrayBuffer());
    expect(readFileSync(join(dir, "pack", "manifest.json")).equals(signed)).toBe(true);
  });
});
