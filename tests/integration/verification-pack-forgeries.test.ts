// the security review's R9: the verification pack's readable parts bound to the platform's signature. Before,
// with the platform's real key `verify.py --public-key` exited 0 after passport.xlsx's year total,
// coefficients.csv's values and sources, version.json's approved_by and total_t_co2e were changed,
// bytes appended to passport.pdf or an unlisted file added — manifest.json re-hashed, since nothing
// signed it. Now the manifest (the version and every file's SHA-256) is signed (manifest.sig.json):
// each of those forgeries exits 1 naming the file, and the readable files are also read back against
// the snapshot, so --sha256 alone catches the figures too. A pack stripped of its signature is
// refused for a version approved since packs are signed; a version approved before is said to be of
// the older format, its readable files still read back. GET v1/signing-keys/ serves the published
// verify.py's SHA-256, which the script prints beside its own.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import ExcelJS from "exceljs";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import type { Clock } from "@server/ports";
import { signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

interface Made {
  h: Harness;
  pack: Uint8Array;
  sha: string;
}

let now: Made;
let before: Made;
let keyFile: string;
let publishedScript: string;
const root = mkdtempSync(join(tmpdir(), "pack-forgeries-"));

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** A year of an open pit (two calculations by dictionary factors) and an estimate by the mine's own
 *  factor with its justification, sent, approved by a reviewer and packed. */
async function approvedPack(clock?: Clock): Promise<Made> {
  const h = await createHarness({}, clock);
  const staff = await h.signedInUser("ООО «Подделки»");
  const post = (path: string, body: unknown, token = staff.token) => h.request(`/api/v1/${path}`, { method: "POST", token, json: body });
  await createUser(h.deps, {
    companyId: staff.companyId,
    email: "reviewer@forge.example",
    password: "reviewer-password",
    role: "reviewer",
  });
  const reviewer = (await json<{ access: string }>(await signIn(h, "reviewer@forge.example", "reviewer-password"), 200)).access;
  const pit = (await json<{ id: string }>(await post("facilities/", { name: "Разрез «Подделки»", kind: "open_pit" }), 201)).id;
  const project = (
    await json<{ id: string }>(
      await post("projects/create_project/", { name: "Разрез 2025", start_date: "2025-01-01", end_date: "2025-12-31", facility: pit }),
      201,
    )
  ).id;
  const calc = (name: string, type: string, body: Record<string, unknown>) => post(`${type}/`, { name, project, ...body });
  await json(await calc("Добыча разреза", "open_mining_ch4", { volume: 5_000_000, dictionary_items: { get_open_mining_ch4: 1 } }), 201);
  await json(await calc("Дизель", "open_mining_co2", { volume: 1_200, dictionary_items: { get_open_mining_co2: 1 } }), 201);
  await json(
    await calc("Оценка по собственному коэффициенту", "underground_emission_ch4", {
      volume: 1_000_000,
      ef: 14.3,
      inventory_role: "alternative",
      dictionary_items: { get_underground_emission_ch4: null },
      justifications: { ef: "Замеры газовыделения 2025 г., протокол № 17" },
    }),
    201,
  );
  const act = async (token: string, action: string) => {
    const inventory = await json<{ review: { version: number } }>(
      await h.request("/api/v1/inventory/?year=2025", { token: staff.token }),
      200,
    );
    await json(await post("inventory/2025/review/", { action, version: inventory.review.version }, token), 200);
  };
  await act(staff.token, "send_to_review");
  await act(reviewer, "approve");
  const sha = (await json<Array<{ sha256: string }>>(await h.request("/api/v1/inventory/2025/versions/", { token: staff.token }), 200))[0]
    .sha256;
  const res = await h.request("/api/v1/inventory/2025/versions/1/pack/", { token: staff.token });
  expect(res.status).toBe(200);
  return { h, pack: new Uint8Array(await res.arrayBuffer()), sha };
}

const extracted = new WeakMap<Uint8Array, string>();
function unzipped(bytes: Uint8Array): string {
  let source = extracted.get(bytes);
  if (!source) {
    const dir = mkdtempSync(join(root, "zip-"));
    writeFileSync(join(dir, "pack.zip"), bytes);
    const out = spawnSync("python3", ["-m", "zipfile", "-e", join(dir, "pack.zip"), join(dir, "pack")], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    source = join(dir, "pack");
    extracted.set(bytes, source);
  }
  const copy = join(mkdtempSync(join(root, "pack-")), "pack");
  cpSync(source, copy, { recursive: true });
  return copy;
}

/** The pack's own verify.py, or the published one (the repository's) run on the pack's folder. */
const verify = (dir: string, ...args: string[]) => spawnSync("python3", ["verify.py", ...args], { cwd: dir, encoding: "utf8" });
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** What a forger who knows the pack's format does after changing files: every changed file's line in
 *  manifest.json re-hashed, an added file listed. */
function rehash(dir: string, ...names: string[]) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as {
    files: Array<{ name: string; bytes: number; sha256: string }>;
  };
  for (const name of names) {
    const bytes = readFileSync(join(dir, name));
    const entry = manifest.files.find((f) => f.name === name);
    if (entry) Object.assign(entry, { bytes: bytes.byteLength, sha256: sha256(bytes) });
    else manifest.files.push({ name, bytes: bytes.byteLength, sha256: sha256(bytes) });
  }
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

function expectRefused(dir: string, ...named: RegExp[]) {
  const out = verify(dir, "--public-key", keyFile);
  expect(out.status, out.stdout + out.stderr).toBe(1);
  for (const name of named) expect(out.stdout).toMatch(name);
  return out.stdout;
}

beforeAll(async () => {
  now = await approvedPack();
  // Approved before packs were signed (the harness's clock on 15.06.2026).
  const day = new Date("2026-06-15T09:00:00.000Z").getTime();
  const started = Date.now();
  before = await approvedPack({ now: () => new Date(day + (Date.now() - started)) });
  const keys = await json<{ keys: Array<{ pem: string }>; verify_py_sha256: string }>(await now.h.request("/api/v1/signing-keys/"), 200);
  keyFile = join(root, "platform.pem");
  writeFileSync(keyFile, keys.keys.at(-1)!.pem);
  publishedScript = keys.verify_py_sha256;
}, 180_000);
afterAll(async () => {
  await Promise.all([now?.h.close(), before?.h.close()]);
  rmSync(root, { recursive: true, force: true });
});

describe("a verification pack bound to the platform's signature (the security review's R9)", () => {
  it("as made: verify.py --public-key checks the manifest's signature and the readable files against the snapshot, and exits 0", () => {
    const dir = unzipped(now.pack);
    const signed = JSON.parse(readFileSync(join(dir, "manifest.sig.json"), "utf8"));
    expect(signed.manifest).toEqual(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
    expect(signed.manifest).toMatchObject({ format: 2, year: 2025, version: 1, sha256_of_snapshot: now.sha });
    const out = verify(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(0);
    expect(out.stdout).toMatch(/сходится: {4}подпись платформы над манифестом \(SHA-256 каждого файла пакета\)/);
    expect(out.stdout).toMatch(/сходится: {4}файл version\.json: год, версия, утверждение и итог — те, что в снимке/);
    expect(out.stdout).toMatch(/сходится: {4}файл passport\.xlsx, лист «Выбросы»: выбросы по газам, 2 строк/);
    expect(out.stdout).toMatch(/сходится: {4}файл coefficients\.csv: \d+ коэффициентов — значения, единицы и источники те, что в снимке/);
    expect(out.stdout).not.toContain("ПРЕЖНИЙ ФОРМАТ");
  });

  it("passport.xlsx's year total changed: exit 1 naming passport.xlsx", async () => {
    const dir = unzipped(now.pack);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(dir, "passport.xlsx"));
    book.getWorksheet("Выбросы")!.eachRow((row) => {
      if (row.getCell(1).value === "Итого") row.getCell(5).value = 1;
    });
    await book.xlsx.writeFile(join(dir, "passport.xlsx"));
    rehash(dir, "passport.xlsx");
    expectRefused(
      dir,
      /РАСХОДИТСЯ: {2}файл passport\.xlsx — SHA-256 [0-9a-f]{64}, в подписанном манифесте/,
      /РАСХОДИТСЯ: {2}файл passport\.xlsx, лист «Выбросы» — «Итого» 1 т CO2-экв\., в снимке/,
    );
    // The figure is read back against the snapshot with the version's hash alone too.
    const anchored = verify(dir, "--sha256", now.sha);
    expect(anchored.status, anchored.stdout).toBe(1);
    expect(anchored.stdout).toMatch(/РАСХОДИТСЯ: {2}файл passport\.xlsx, лист «Выбросы» — «Итого» 1 т/);
  });

  it("coefficients.csv's values and sources changed: exit 1 naming coefficients.csv", () => {
    const dir = unzipped(now.pack);
    const csv = readFileSync(join(dir, "coefficients.csv"), "utf8");
    const forged = csv
      .replace("Замеры газовыделения 2025 г., протокол № 17", "Замеры газовыделения 2025 г., протокол № 18")
      .replace(/;14\.3;/, ";1.43;");
    expect(forged).not.toBe(csv);
    writeFileSync(join(dir, "coefficients.csv"), forged);
    rehash(dir, "coefficients.csv");
    const out = expectRefused(dir, /РАСХОДИТСЯ: {2}файл coefficients\.csv — SHA-256/);
    expect(out).toMatch(
      /РАСХОДИТСЯ: {2}файл coefficients\.csv — строка \d+ \(calculations\/\d{4}\.json, ef\): значение «1\.43», в снимке «14\.3»/,
    );
    expect(out).toMatch(
      /РАСХОДИТСЯ: {2}файл coefficients\.csv — строка \d+ \(calculations\/\d{4}\.json, ef\): источник «.*протокол № 18.*» не называет/,
    );
  });

  it("version.json's approved_by and total_t_co2e changed: exit 1 naming version.json", () => {
    const dir = unzipped(now.pack);
    const version = JSON.parse(readFileSync(join(dir, "version.json"), "utf8"));
    Object.assign(version, { approved_by: "forger@forge.example", total_t_co2e: version.total_t_co2e / 2 });
    writeFileSync(join(dir, "version.json"), `${JSON.stringify(version, null, 2)}\n`);
    rehash(dir, "version.json");
    expectRefused(
      dir,
      /РАСХОДИТСЯ: {2}файл version\.json — SHA-256/,
      /РАСХОДИТСЯ: {2}файл version\.json: approved_by — в version\.json 'forger@forge\.example', в снимке 'reviewer@forge\.example'/,
      /РАСХОДИТСЯ: {2}файл version\.json: total_t_co2e — в version\.json/,
    );
  });

  it("bytes appended to passport.pdf: exit 1 naming passport.pdf", () => {
    const dir = unzipped(now.pack);
    appendFileSync(join(dir, "passport.pdf"), "\n% appended page\n");
    rehash(dir, "passport.pdf");
    expectRefused(dir, /РАСХОДИТСЯ: {2}файл passport\.pdf — SHA-256 [0-9a-f]{64}, в подписанном манифесте/);
  });

  it("an unlisted file added (listed in manifest.json or not): exit 1 naming it", () => {
    const unlisted = unzipped(now.pack);
    mkdirSync(join(unlisted, "evidence"), { recursive: true });
    writeFileSync(join(unlisted, "evidence", "extra.pdf"), "%PDF-1.7 added");
    expectRefused(unlisted, /РАСХОДИТСЯ: {2}файл evidence\/extra\.pdf — его нет в подписанном манифесте/);
    // What a file manager leaves in the folder it shows is no file of the pack and is not refused.
    const browsed = unzipped(now.pack);
    writeFileSync(join(browsed, ".DS_Store"), "Finder");
    const shown = verify(browsed, "--public-key", keyFile);
    expect(shown.status, shown.stdout).toBe(0);
    expect(shown.stdout).toContain("примечание: служебный файл .DS_Store (его оставляет файловый менеджер) не проверяется");
    const listed = unzipped(now.pack);
    writeFileSync(join(listed, "readme.txt"), "added");
    rehash(listed, "readme.txt");
    expectRefused(
      listed,
      /РАСХОДИТСЯ: {2}файл readme\.txt — его нет в подписанном манифесте/,
      /РАСХОДИТСЯ: {2}файл manifest\.json — не тот, что подписан/,
    );
  });

  it("the signed manifest rewritten too, or its signature removed: exit 1 naming it", () => {
    const rewritten = unzipped(now.pack);
    appendFileSync(join(rewritten, "passport.pdf"), "\n% appended page\n");
    rehash(rewritten, "passport.pdf");
    const signed = JSON.parse(readFileSync(join(rewritten, "manifest.sig.json"), "utf8"));
    signed.manifest = JSON.parse(readFileSync(join(rewritten, "manifest.json"), "utf8"));
    writeFileSync(join(rewritten, "manifest.sig.json"), JSON.stringify(signed));
    expectRefused(
      rewritten,
      /РАСХОДИТСЯ: {2}файл manifest\.sig\.json — SHA-256 манифеста/,
      /РАСХОДИТСЯ: {2}файл manifest\.sig\.json: подпись платформы — не подтверждает манифест/,
    );

    const stripped = unzipped(now.pack);
    rmSync(join(stripped, "manifest.sig.json"));
    const manifest = JSON.parse(readFileSync(join(stripped, "manifest.json"), "utf8"));
    delete manifest.format;
    writeFileSync(join(stripped, "manifest.json"), JSON.stringify(manifest));
    expectRefused(
      stripped,
      /РАСХОДИТСЯ: {2}файл manifest\.json — версия утверждена \d{4}-\d\d-\d\d, а с 2026-11-27 платформа подписывает манифест каждого пакета/,
    );
  });

  it("a pack of the older format (a version approved before 27.11.2026, no signed manifest) verifies as before and says so; its readable files are still read back", () => {
    const dir = unzipped(before.pack);
    const strip = (folder: string) => {
      rmSync(join(folder, "manifest.sig.json"));
      const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"));
      delete manifest.format;
      delete manifest.approved_at;
      delete manifest.company;
      writeFileSync(join(folder, "manifest.json"), JSON.stringify(manifest, null, 2));
    };
    strip(dir);
    const out = verify(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(0);
    expect(out.stdout).toContain("ПРЕЖНИЙ ФОРМАТ: пакет без подписи манифеста (manifest.sig.json), как платформа делала их до 2026-11-27.");
    expect(out.stdout).toContain("Пакет прежнего формата: его манифест не подписан");

    const forged = unzipped(before.pack);
    strip(forged);
    const version = JSON.parse(readFileSync(join(forged, "version.json"), "utf8"));
    writeFileSync(join(forged, "version.json"), JSON.stringify({ ...version, approved_by: "forger@forge.example" }));
    rehash(forged, "version.json");
    expectRefused(forged, /РАСХОДИТСЯ: {2}файл version\.json: approved_by/);
  });

  it("verify.py says how to check it is the published one: its SHA-256 is GET v1/signing-keys/'s verify_py_sha256", () => {
    const dir = unzipped(now.pack);
    const script = readFileSync(join(dir, "verify.py"));
    expect(sha256(script)).toBe(publishedScript);
    const out = verify(dir, "--public-key", keyFile);
    expect(out.stdout.split("\n")[0]).toBe(
      `Этот verify.py: SHA-256 ${publishedScript}. Сверьте его (sha256sum verify.py) с verify_py_sha256 в GET /api/v1/signing-keys/ и в docs/security.md платформы: подмененный скрипт напечатает что угодно.`,
    );
  });
});
