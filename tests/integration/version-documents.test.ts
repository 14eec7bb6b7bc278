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

describe("an approved version's xlsx files on the company's clock", () => {
  /** The DOS date and time of the zip's first local header, as the company's wall clock reads them. */
  const zipStamp = (bytes: Uint8Array) => {
    const view = Buffer.from(bytes);
    const [time, date] = [view.readUInt16LE(10), view.readUInt16LE(12)];
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${1980 + (date >> 9)}-${pad((date >> 5) & 15)}-${pad(date & 31)}T${pad(time >> 11)}:${pad((time >> 5) & 63)}`;
  };
  const calculations = async () => {
    const res = await h.request("/api/v1/inventory/2024/report/?format=calculations&version=1", { token: staff });
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };

  it("«Расчеты» of version 1 is the same bytes on every download, and its zip entries and the passport's are dated by the approval on the company's clock", async () => {
    const once = await calculations();
    // The workbook's properties are written to the second: a second later a clock-dated file differs.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(Buffer.from(await calculations()).equals(Buffer.from(once))).toBe(true);
    const [approved] = await json<Array<{ approved_at: string }>>(
      await h.request("/api/v1/inventory/2024/versions/", { token: staff }),
      200,
    );
    // «Кемерово, Новокузнецк (UTC+7)», the company's zone unless chosen.
    const wall = new Date(new Date(approved.approved_at).getTime() + 7 * 3_600_000).toISOString().slice(0, 16);
    const even = (stamp: string) => stamp.slice(0, 16);
    expect(even(zipStamp(once))).toBe(wall);
    expect(even(zipStamp(before.xlsx))).toBe(wall);
  });
});
