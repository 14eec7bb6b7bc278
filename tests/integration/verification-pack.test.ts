// D34: the verification pack of an approved version. A year with two facilities — a mine whose
// ventilation and drainage are measured gross, with post-mining, a flare by composition and a boiler
// on the drained gas (the netting), and an open pit — is approved; its pack unzips, every file's
// SHA-256 is the manifest's, and `python3 verify.py` agrees on every line and exits 0. One line's
// figure changed in the snapshot, or one calculation's input in its file, makes it exit 1 naming
// the line. D44: verify.py checks a list of files of its own besides the manifest's (a file left
// out of the manifest or deleted exits 2 naming it), and compares the snapshot's SHA-256 with the one
// the passport printed (a consistent forgery of snapshot, version.json and manifest exits 1) and
// with one passed as --sha256. Made as a job (a large company), the job's file is the same zip.
// Another company, a missing version and an unapproved one get 404.
import { spawnSync } from "node:child_process";
import { createHash, generateKeyPairSync } from "node:crypto";
import ExcelJS from "exceljs";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@server/domain/company/users";
import { canonicalJson } from "@server/domain/inventory/versions";
import { newId } from "@server/domain/ids";
import { runJob } from "@server/adapters/spreadsheets/jobs";
import { inProcessSpreadsheets } from "@server/export/in-process";
import { multipart, signIn } from "../support/admin";
import { createHarness, type Harness } from "../support/harness";

let h: Harness;
let token: string;
let staff: { id: string; company: string; email: string };
let reviewer: string;
let other: string;
let pack: Uint8Array;
let listedSha: string;
/** The platform's public key as GET v1/signing-keys/ serves it, in a file for --public-key. */
let keyFile: string;
let fingerprint: string;

async function json<T>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

const post = (path: string, body: unknown, as = token) => h.request(`/api/v1/${path}`, { method: "POST", token: as, json: body });

async function act(as: string, action: string) {
  const inventory = await json<{ review: { version: number } }>(await h.request("/api/v1/inventory/?year=2025", { token }), 200);
  await json(await post("inventory/2025/review/", { action, version: inventory.review.version }, as), 200);
}

const extracted = new WeakMap<Uint8Array, string>();

/** The pack unzipped into a folder of its own, for a test to change before verify.py runs: a zip is
 *  extracted once (a Python start each time) and each caller gets a copy. */
function unzipped(bytes: Uint8Array): string {
  let source = extracted.get(bytes);
  if (!source) {
    const dir = mkdtempSync(join(tmpdir(), "pack-"));
    writeFileSync(join(dir, "pack.zip"), bytes);
    const out = spawnSync("python3", ["-m", "zipfile", "-e", join(dir, "pack.zip"), join(dir, "pack")], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    source = join(dir, "pack");
    extracted.set(bytes, source);
  }
  const copy = join(mkdtempSync(join(tmpdir(), "pack-")), "pack");
  cpSync(source, copy, { recursive: true });
  return copy;
}

const verify = (dir: string, ...args: string[]) => spawnSync("python3", ["verify.py", ...args], { cwd: dir, encoding: "utf8" });

/** Rewrites a file's JSON and its line in the manifest (a forger who also fixes the manifest);
 *  answers the new text's SHA-256. */
function forge(dir: string, name: string, change: (value: Record<string, unknown>) => void, canonical = false): string {
  const value = JSON.parse(readFileSync(join(dir, name), "utf8"));
  change(value);
  const text = canonical ? JSON.stringify(value) : `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(join(dir, name), text);
  const sha = createHash("sha256").update(text).digest("hex");
  editManifest(dir, (manifest) => {
    manifest.files.find((f) => f.name === name)!.sha256 = sha;
  });
  return sha;
}

/** Changes manifest.json and the manifest copy manifest.sig.json signs (with its SHA-256: a forger
 *  who knows the format), leaving the platform's signature as it was (the security review's R9). */
function editManifest(dir: string, change: (manifest: { files: Array<{ name: string; sha256: string }> }) => void) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  change(manifest);
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
  const signed = JSON.parse(readFileSync(join(dir, "manifest.sig.json"), "utf8"));
  writeFileSync(
    join(dir, "manifest.sig.json"),
    JSON.stringify({ ...signed, manifest, manifest_sha256: createHash("sha256").update(canonicalJson(manifest)).digest("hex") }),
  );
}

beforeAll(async () => {
  h = await createHarness();
  const a = await h.signedInUser("ООО «Пакет»");
  token = a.token;
  staff = { id: a.userId, company: a.companyId, email: a.email };
  ({ token: other } = await h.signedInUser("ООО Чужая"));
  await createUser(h.deps, { companyId: a.companyId, email: "reviewer@pack.example", password: "reviewer-password", role: "reviewer" });
  reviewer = ((await (await signIn(h, "reviewer@pack.example", "reviewer-password")).json()) as { access: string }).access;

  const facility = async (name: string, kind: string) => (await json<{ id: string }>(await post("facilities/", { name, kind }), 201)).id;
  const mine = await facility("Шахта «Пакет»", "underground_mine");
  const pit = await facility("Разрез «Пакет»", "open_pit");
  const project = async (name: string, facilityId: string) =>
    (
      await json<{ id: string }>(
        await post("projects/create_project/", { name, start_date: "2025-01-01", end_date: "2025-12-31", facility: facilityId }),
        201,
      )
    ).id;
  const point = async (name: string, kind: string) =>
    (
      await json<{ id: string }>(
        await post(`facilities/${mine}/points/`, { name, kind, instrument: "Расходомер", frequency: "непрерывно" }),
        201,
      )
    ).id;
  const shaft = await point("Вентиляционный ствол № 1", "ventilation_shaft");
  const drainage = await point("Дегазационная установка", "drainage_station");
  const flare = await point("Факельная установка", "flare");
  const boiler = await point("Котельная", "boiler_engine");
  const mining = await project("Шахта: добыча 2025", mine);
  const destroyed = await project("Шахта: факел и котельная 2025", mine);
  const pitProject = await project("Разрез 2025", pit);
  const calc = async (name: string, type: string, projectId: string, body: Record<string, unknown>) =>
    json<{ id: string; version: number }>(await post(`${type}/`, { name, project: projectId, ...body }), 201);
  const gas = { p_co2: 1.8393, p_ch4: 0.668 };
  await calc("Вентиляция", "underground", mining, { point: shaft, basis: "gross", volume: 400_000, ef_ch4: 0.5, ef_co2: 0.2, ...gas });
  await calc("Дегазация", "underground", mining, { point: drainage, basis: "gross", volume: 30_000, ef_ch4: 60, ef_co2: 5, ...gas });
  await calc("После добычи", "handling_underground_ch4", mining, { volume: 2_000_000, ef: 2.5, koef_transform: 0.67 });
  await calc("Факел", "torch_composition", destroyed, {
    point: flare,
    volume: 10_000,
    w_ch4: 60,
    w_co2: 5,
    cf: 0.0006,
    ...gas,
    dictionary_items: { get_torch_cf: null, get_coeff_co2_density: null },
  });
  await calc("Котельная на шахтном метане", "disposal_co2_stat_sources", destroyed, {
    point: boiler,
    volume: 3_000,
    dictionary_items: { get_disposal_co2_stat_sources: 8 },
  });
  await calc("Факел МГЭИК", "torch_ch4", destroyed, { volume: 6_000, koef_transform: 0.67 });
  await calc("Добыча разреза", "open_mining_ch4", pitProject, { volume: 5_000_000, dictionary_items: { get_open_mining_ch4: 1 } });
  await calc("Дизель", "open_mining_co2", pitProject, { volume: 1_200, dictionary_items: { get_open_mining_co2: 1 } });
  // An estimate with the mine's own factor and its evidence file, listed as an alternative.
  const own = await calc("Оценка по собственному коэффициенту", "underground_emission_ch4", mining, {
    volume: 1_000_000,
    ef: 14.3,
    inventory_role: "alternative",
    dictionary_items: { get_underground_emission_ch4: null },
    justifications: { ef: "Замеры газовыделения 2025 г., протокол № 17" },
  });
  const { body, headers } = await multipart(
    { version: String(own.version) },
    { name: "Протокол 17.png", bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]), type: "image/png" },
  );
  const attached = await h.request(`/api/v1/underground_emission_ch4/${own.id}/evidence/ef/`, {
    method: "PUT",
    token,
    body: body as Uint8Array<ArrayBuffer>,
    headers,
  });
  expect(attached.status, await attached.clone().text()).toBe(200);

  await act(token, "send_to_review");
  await act(reviewer, "approve");
  listedSha = (await json<Array<{ sha256: string }>>(await h.request("/api/v1/inventory/2025/versions/", { token }), 200))[0].sha256;
  const res = await h.request("/api/v1/inventory/2025/versions/1/pack/", { token: reviewer });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(decodeURIComponent(res.headers.get("content-disposition") ?? "")).toContain("Пакет верификации 2025 версия 1.zip");
  pack = new Uint8Array(await res.arrayBuffer());
  const keys = await json<{ keys: Array<{ pem: string; fingerprint_sha256: string }> }>(await h.request("/api/v1/signing-keys/"), 200);
  const key = keys.keys.at(-1)!;
  fingerprint = key.fingerprint_sha256;
  keyFile = join(mkdtempSync(join(tmpdir(), "key-")), "platform.pem");
  writeFileSync(keyFile, key.pem);
}, 120_000);
afterAll(() => h.close());

describe("the verification pack of an approved version (D34)", () => {
  it("holds the snapshot as stored, every calculation, coefficients, evidence, both passports and verify.py, each under the manifest's SHA-256", () => {
    const dir = unzipped(pack);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as {
      sha256_of_snapshot: string;
      files: Array<{ name: string; bytes: number; sha256: string }>;
      evidence: Array<{ file: string; name: string }>;
    };
    const names = manifest.files.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "snapshot.json",
        "version.json",
        "rules.json",
        "coefficients.csv",
        "passport.pdf",
        "passport.xlsx",
        "verify.py",
      ]),
    );
    for (const file of manifest.files) {
      const bytes = readFileSync(join(dir, file.name));
      expect(bytes.byteLength, file.name).toBe(file.bytes);
      expect(createHash("sha256").update(bytes).digest("hex"), file.name).toBe(file.sha256);
    }
    // Every file of the zip is in the manifest (and the manifest itself, with its signature: the security review's R9).
    const all = (sub: string): string[] =>
      readdirSync(join(dir, sub), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? all(join(sub, e.name)) : [join(sub, e.name).replace(/^\.\//, "")],
      );
    expect(all(".").sort()).toEqual([...names, "manifest.json", "manifest.sig.json"].sort());
    // The snapshot is the stored bytes: their SHA-256 is the one the version list shows.
    expect(
      createHash("sha256")
        .update(readFileSync(join(dir, "snapshot.json")))
        .digest("hex"),
    ).toBe(listedSha);
    expect(manifest.sha256_of_snapshot).toBe(listedSha);
    const snapshot = JSON.parse(readFileSync(join(dir, "snapshot.json"), "utf8"));
    expect(names.filter((n) => n.startsWith("calculations/"))).toHaveLength(snapshot.inventory.calculations.length);
    expect(manifest.evidence).toEqual([expect.objectContaining({ name: "Протокол 17.png" })]);
    expect(readFileSync(join(dir, manifest.evidence[0].file)).subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(readFileSync(join(dir, "passport.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
    const csv = readFileSync(join(dir, "coefficients.csv"), "utf8");
    expect(csv).toContain("Уровень 2 (коэффициент организации)");
    expect(csv).toContain("Замеры газовыделения 2025 г., протокол № 17");
  });

  it("verify.py agrees on every line, the netting, the totals, the hash and the platform's signature, and exits 0", () => {
    const out = verify(unzipped(pack), "--public-key", keyFile);
    expect(out.status, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).not.toContain("РАСХОДИТСЯ");
    expect(out.stdout).toMatch(/сходится: {4}строка 1\.B\.1\.a\.i\.1 CH4 .*\(категория 3\), т/);
    expect(out.stdout).toMatch(/сходится: {4}баланс метана площадки «Шахта «Пакет»»: netted_t/);
    expect(out.stdout).toMatch(/сходится: {4}итого площадки «Разрез «Пакет»»/);
    expect(out.stdout).toContain(`SHA-256 ${listedSha}`);
    expect(out.stdout).toContain("сходится:    SHA-256 снимка — тот, что напечатан в паспорте (passport.pdf)");
    expect(out.stdout).toContain(`сходится:    подпись платформы над SHA-256 снимка — ключом ${fingerprint} (--public-key)`);
    expect(out.stdout).toContain("сходится:    ключ подписи — тот, что напечатан в паспорте (passport.xlsx)");
    expect(out.stdout).toContain("сходится:    четыре глаза: отправил");
  });

  it("without an outside anchor says only the pack's self-consistency was checked, and exits 3", () => {
    const out = verify(unzipped(pack));
    expect(out.status, out.stdout).toBe(3);
    expect(out.stdout).toContain("Проверена только согласованность пакета с самим собой: внешний якорь не передан.");
  });

  it("the finding's forgery — approved_by changed, re-hashed into version.json, the xlsx passport and the manifest — fails the signature and the PDF's printed hash", async () => {
    const dir = unzipped(pack);
    const forged = forge(dir, "snapshot.json", (snapshot) => Object.assign(snapshot, { approved_by: "forger@pack.example" }), true);
    forge(dir, "version.json", (version) => Object.assign(version, { sha256: forged, approved_by: "forger@pack.example" }));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(dir, "passport.xlsx"));
    workbook.worksheets[0].eachRow((row) => {
      if (row.getCell(1).value === "SHA-256 версии") row.getCell(2).value = forged;
    });
    await workbook.xlsx.writeFile(join(dir, "passport.xlsx"));
    editManifest(dir, (manifest) => {
      manifest.files.find((f) => f.name === "passport.xlsx")!.sha256 = createHash("sha256")
        .update(readFileSync(join(dir, "passport.xlsx")))
        .digest("hex");
    });
    const selfOnly = verify(dir);
    expect(selfOnly.status, selfOnly.stdout).toBe(1);
    expect(selfOnly.stdout).toContain(`РАСХОДИТСЯ:  SHA-256 снимка: в паспорте (passport.pdf) напечатан ${listedSha} — пересчет ${forged}`);
    const out = verify(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain(`РАСХОДИТСЯ:  подпись платформы — подпись в version.json не подтверждает SHA-256 ${forged}`);
  });

  it("a version approved by its own sender fails four eyes", () => {
    const dir = unzipped(pack);
    forge(dir, "snapshot.json", (snapshot) => Object.assign(snapshot, { approved_by: snapshot.sent_by }), true);
    const out = verify(dir, "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}четыре глаза — версию утвердил тот же, кто ее отправил/);
  });

  it("another key than the platform's fails the signature", () => {
    const other = join(mkdtempSync(join(tmpdir(), "key-")), "other.pem");
    writeFileSync(other, generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ format: "pem", type: "spki" }));
    const out = verify(unzipped(pack), "--public-key", other);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain("РАСХОДИТСЯ:  подпись платформы — подпись в version.json не подтверждает");
  });

  it("one line's figure changed in the snapshot: verify.py exits 1 naming the line, and the hash differs", () => {
    const dir = unzipped(pack);
    forge(
      dir,
      "snapshot.json",
      (snapshot) => {
        const inventory = snapshot.inventory as { categories: Array<{ ipcc_code: string; gas: string; t: number; t_co2e: number }> };
        const line = inventory.categories.find((l) => l.ipcc_code === "1.B.1.a.ii.1" && l.gas === "CH4")!;
        line.t += 1;
      },
      true,
    );
    const out = verify(dir);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}строка 1\.B\.1\.a\.ii\.1 CH4 .*\(категория 3\), т — пересчет/);
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}SHA-256 снимка/);
  });

  it("one calculation's input changed in its file: verify.py exits 1 naming its line and the netting it moves", () => {
    const dir = unzipped(pack);
    const snapshot = JSON.parse(readFileSync(join(dir, "snapshot.json"), "utf8"));
    const index = snapshot.inventory.calculations.findIndex((c: { name: string }) => c.name === "Факел");
    forge(dir, `calculations/${String(index + 1).padStart(4, "0")}.json`, (calc) => {
      (calc.inputs as { volume: number }).volume = 20_000;
    });
    const out = verify(dir);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}строка 1\.B\.1\.a\.i\.4 .*расчет «Факел» — inputs\.volume: 20000 в calculations/);
    // The flare's gas comes off the mine's gross line (D17): the netting and the line move with it.
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}баланс метана площадки «Шахта «Пакет»»: netted_t/);
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}строка 1\.B\.1\.a\.i\.1 CH4 .*\(категория 3\), т —/);
  });

  it("a file changed without its manifest line is named", () => {
    const dir = unzipped(pack);
    writeFileSync(join(dir, "passport.pdf"), "%PDF-1.7 forged");
    const out = verify(dir);
    expect(out.status).toBe(1);
    expect(out.stdout).toMatch(/РАСХОДИТСЯ: {2}файл passport\.pdf — SHA-256/);
  });

  it("a file left out of the manifest, or deleted, makes the pack incomplete: verify.py exits 2 naming the file (D44)", () => {
    const unlisted = unzipped(pack);
    editManifest(unlisted, (manifest) => {
      manifest.files = manifest.files.filter((f) => f.name !== "passport.xlsx" && f.name !== "calculations/0002.json");
    });
    const out = verify(unlisted);
    expect(out.status, out.stdout).toBe(2);
    expect(out.stdout).toContain("НЕПОЛОН:     файл passport.xlsx не указан в manifest.json");
    expect(out.stdout).toContain("НЕПОЛОН:     файл calculations/0002.json не указан в manifest.json");

    const deleted = unzipped(pack);
    rmSync(join(deleted, "calculations/0001.json"));
    const gone = verify(deleted);
    expect(gone.status, gone.stdout).toBe(2);
    expect(gone.stdout).toContain("НЕПОЛОН:     файла calculations/0001.json нет в пакете");
  });

  it("a consistent forgery (snapshot re-serialized, version.json and manifest updated) differs from the SHA-256 printed in the passport: exit 1 (D44)", () => {
    const dir = unzipped(pack);
    const forged = forge(dir, "snapshot.json", (snapshot) => Object.assign(snapshot, { approved_by: "forger@pack.example" }), true);
    forge(dir, "version.json", (version) => Object.assign(version, { sha256: forged }));
    const out = verify(dir);
    expect(out.status, out.stdout).toBe(1);
    expect(out.stdout).toContain(`РАСХОДИТСЯ:  SHA-256 снимка: в паспорте (passport.xlsx) напечатан ${listedSha} — пересчет ${forged}`);
    expect(out.stdout).toContain(`РАСХОДИТСЯ:  SHA-256 снимка: в паспорте (passport.pdf) напечатан ${listedSha} — пересчет ${forged}`);
    // the security review's R9: the manifest names the version's hash, and version.json's approver is the snapshot's.
    expect(out.stdout).toContain(`РАСХОДИТСЯ:  файл manifest.json: sha256_of_snapshot — в манифесте ${listedSha}, у версии ${forged}`);
    expect(out.stdout).toContain(
      "РАСХОДИТСЯ:  файл version.json: approved_by — в version.json 'reviewer@pack.example', в снимке 'forger@pack.example'",
    );
    expect(out.stdout).toContain("Расходится 4 из");
  });

  it("checks the SHA-256 the verifier passes (--sha256): another hash exits 1 naming it, the version's exits 0 (D44)", () => {
    const dir = unzipped(pack);
    const other = "0".repeat(64);
    const wrong = verify(dir, "--sha256", other);
    expect(wrong.status, wrong.stdout).toBe(1);
    expect(wrong.stdout).toContain(`РАСХОДИТСЯ:  SHA-256 снимка: передан (--sha256) ${other} — пересчет ${listedSha}`);
    const right = verify(dir, "--sha256", listedSha.toUpperCase());
    expect(right.status, right.stdout).toBe(0);
    expect(right.stdout).toContain("сходится:    SHA-256 снимка — тот, что передан (--sha256)");
    expect(right.stdout).toContain("сходится:    SHA-256 снимка — тот, что напечатан в паспорте (passport.xlsx)");
  });

  it("is made as a job for a large company as the passport is: the job's file is the same zip, verified by its script", async () => {
    const job = newId();
    const worker = inProcessSpreadsheets(() => h.deps, { inlineLimitBytes: Number.POSITIVE_INFINITY });
    const actor = { ...staff, role: "staff" as const };
    const state = await runJob(h.deps, worker, {
      op: "job",
      job,
      request: { op: "inventory_report", actor, year: 2025, format: "pack", version: 1 },
    });
    expect(state).toMatchObject({ state: "done", progress: 100, file_name: "Пакет верификации 2025 версия 1.zip" });
    const stored = await h.deps.blobs.get(`exports/${staff.company}/jobs/${job}.zip`);
    expect(stored?.contentType).toBe("application/zip");
    const out = verify(unzipped(stored!.body), "--public-key", keyFile);
    expect(out.status, out.stdout).toBe(0);
  });

  it("is 404 for another company, a missing version and an unapproved year; 400 for a version that is not a number", async () => {
    expect((await h.request("/api/v1/inventory/2025/versions/1/pack/", { token: other })).status).toBe(404);
    expect((await h.request("/api/v1/inventory/2025/versions/2/pack/", { token })).status).toBe(404);
    expect((await h.request("/api/v1/inventory/2024/versions/1/pack/", { token })).status).toBe(404);
    const bad = await h.request("/api/v1/inventory/2025/versions/x/pack/", { token });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^Версия: /);
  });
});
