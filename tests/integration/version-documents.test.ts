// D39: a version's documents are that version. Version 1's passports (PDF, xlsx) and its pack are
// downloaded right after its approval, then the report is sent, refused, the data changed and the
// rework finished by another reviewer (version 2); version 1's three files downloaded again are the
// same bytes, and its passport names its own approver and the steps up to its approval only, while
// version 2's names the second reviewer and the refusal.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let staff: string;
let first: string;
let second: string;
let torch: { id: string; version: number };
const before: Record<string, Uint8Array> = {};

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}
const act = async (token: string, action: string, extra: Record<string, unknown> = {}) => {
  const { review } = await json<{ review: { version: number } }>(await h.request("/api/v1/inventory/?year=2024", { token: staff }), 200);
  return json<{ status: string }>(
    await h.request("/api/v1/inventory/2024/review/", { method: "POST", token, json: { action, version: review.version, ...extra } }),
    200,
  );
};

/** Version 1's documents (or the year's current passport with `version` undefined). */
async function download(what: "pdf" | "xlsx" | "pack", version: number | undefined = 1): Promise<Uint8Array> {
  const path =
    what === "pack"
      ? `/api/v1/inventory/2024/versions/${version}/pack/`
      : `/api/v1/inventory/2024/report/?format=${what}${version === undefined ? "" : `&version=${version}`}`;
  const res = await h.request(path, { token: staff });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

function pdfText(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), "passport-")), "passport.pdf");
  writeFileSync(file, bytes);
  const out = spawnSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.replace(/[ \u00a0\u202f]+/g, " ");
}

async function reviewer(companyId: string, email: string, first_name: string, last_name: string): Promise<string> {
  await createUser(h.deps, { companyId, email, password: "reviewer-password", role: "reviewer", first_name, last_name });
  return ((await (await signIn(h, email, "reviewer-password")).json()) as { access: string }).access;
}

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Версии»");
  staff = a.token;
  first = await reviewer(a.companyId, "first@versions.example", "Анна", "Первая");
  second = await reviewer(a.companyId, "second@versions.example", "Борис", "Второй");
  const project = await json<{ id: string }>(
    await h.request("/api/v1/projects/create_project/", {
      method: "POST",
      token: staff,
      json: { name: "Шахта 2024", start_date: "2024-01-01", end_date: "2024-12-31" },
    }),
    201,
  );
  torch = await json(
    await h.request("/api/v1/torch_ch4/", {
      method: "POST",
      token: staff,
      json: { name: "Факел", project: project.id, volume: 700, koef_transform: 0.67 },
    }),
    201,
  );
  await act(staff, "send_to_review");
  await act(first, "approve");
  for (const what of ["pdf", "xlsx", "pack"] as const) before[what] = await download(what);
}, 60_000);
afterAll(() => h.close());

describe("an approved version's documents (D39)", () => {
  it("are the same bytes asked for by number or as the year's passport while it stands approved", async () => {
    expect(Buffer.from(await download("pdf", undefined)).equals(before.pdf)).toBe(true);
    expect(Buffer.from(await download("xlsx", undefined)).equals(before.xlsx)).toBe(true);
  });

  it("stay the same bytes after the report is sent, refused, changed and version 2 approved by another reviewer", async () => {
    await act(first, "submit", { date: "2025-03-20" });
    await act(first, "refuse", { notice_date: "2025-04-01", reason: "нет данных о факеле" });
    await json(
      await h.request(`/api/v1/torch_ch4/${torch.id}/`, { method: "PATCH", token: staff, json: { volume: 800, version: torch.version } }),
      200,
    );
    expect((await act(second, "rework_done")).status).toBe("reworked");
    const versions = await json<Array<{ version: number }>>(await h.request("/api/v1/inventory/2024/versions/", { token: staff }), 200);
    expect(versions.map((v) => v.version)).toEqual([1, 2]);

    for (const what of ["pdf", "xlsx", "pack"] as const) {
      expect(Buffer.from(await download(what)).equals(before[what]), what).toBe(true);
    }
  });

  it("print each version's own approval and the steps up to it: version 1 not the refusal nor version 2's approver", async () => {
    const v1 = pdfText(await download("pdf"));
    expect(v1).toMatch(/Утверждена \d\d\.\d\d\.\d{4}, Анна Первая/);
    expect(v1).toMatch(/Статус Утверждена/);
    expect(v1).not.toContain("Борис Второй");
    expect(v1).not.toContain("отчет возвращен");
    expect(v1).not.toContain("отчет направлен");

    const v2 = pdfText(await download("pdf", 2));
    expect(v2).toMatch(/Утверждена \d\d\.\d\d\.\d{4}, Борис Второй/);
    expect(v2).toMatch(/Статус Доработана/);
    expect(v2).toContain("отчет возвращен 01.04.2025 (Анна Первая): нет данных о факеле");
    expect(v2).toContain("доработка завершена (Борис Второй)");
  });
});
