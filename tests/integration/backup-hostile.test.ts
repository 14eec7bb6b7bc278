// the security review's R16: a backup is restored only as far as it is what a backup writes. A hostile archive
// (its manifest listing every part with the right SHA-256, as anyone can write one) that carried
// files/dynamodb-endpoint.json was restored, and the next admin command on the folder talked to the
// archive's URL; one with a single 600 MB line in a database part was called whole by verify-backup
// and crashed restore (RangeError: the part was read into one string); entries that would leave the
// folder were dropped in silence and counted as restored. Now verify-backup and restore refuse such
// an archive, naming what they refused (the admin command exits 1 with it) and leaving no folder;
// a database part is read a bounded line at a time (the 600 MB line at a scaled size: one byte over
// MAX_RECORD_BYTES); and a well-formed archive of several thousand records still restores.
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { BACKUP_KIND, MAX_RECORD_BYTES, restoreBackup, verifyBackup } from "@server/local/backup";
import { endArchive, endEntry, startEntry, writeChunk } from "@server/local/tar";
import { runAdmin } from "../support/admin-command";

const root = mkdtempSync(join(tmpdir(), "backup-hostile-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Part {
  name: string;
  bytes: Buffer;
}

/** An archive as a backup writes it, with `parts` listed in its manifest under their true sizes and
 *  SHA-256 (what a forger who read backup.ts writes). */
async function archive(name: string, parts: Part[]): Promise<string> {
  const file = join(root, `${name}.tar.gz`);
  const gzip = createGzip();
  const out = createWriteStream(file);
  gzip.pipe(out);
  const part = (p: Part) => ({
    path: p.name,
    bytes: p.bytes.length,
    sha256: createHash("sha256").update(p.bytes).digest("hex"),
  });
  const database = parts.filter((p) => p.name.startsWith("dynamodb/"));
  const files = parts.filter((p) => !p.name.startsWith("dynamodb/"));
  const lines = (p: Part) => p.bytes.toString("utf8").split("\n").filter(Boolean).length;
  const manifest = {
    kind: BACKUP_KIND,
    version: 1,
    created_at: "2026-11-27T08:00:00.000Z",
    host: "forger",
    dynamodb: {
      records: database.reduce((sum, p) => sum + lines(p), 0),
      items: {},
      parts: database.map((p) => ({ ...part(p), records: lines(p) })),
    },
    files: { count: files.length, bytes: files.reduce((sum, p) => sum + p.bytes.length, 0), list: files.map(part) },
  };
  for (const p of [...parts, { name: "manifest.json", bytes: Buffer.from(JSON.stringify(manifest)) }]) {
    await startEntry(gzip, p.name, p.bytes.length);
    await writeChunk(gzip, p.bytes);
    await endEntry(gzip, p.bytes.length);
  }
  await endArchive(gzip);
  gzip.end();
  await finished(out);
  return file;
}

const records = (count: number) =>
  Buffer.from(Array.from({ length: count }, (_, i) => `${JSON.stringify([`item-t~${i}`, JSON.stringify({ n: i })])}\n`).join(""));
const blob = { name: "files/blobs/uploads/протокол.txt", bytes: Buffer.from("протокол 17") };

describe("a hostile backup (the security review's R16)", () => {
  it("with files/dynamodb-endpoint.json: verify-backup and restore refuse it naming the part; no folder, no endpoint file", async () => {
    const file = await archive("endpoint", [
      { name: "dynamodb/000001.jsonl", bytes: records(3) },
      blob,
      { name: "files/dynamodb-endpoint.json", bytes: Buffer.from(JSON.stringify({ endpoint: "http://attacker.example:8000" })) },
    ]);
    const refusal =
      /в ней есть части, которых резервная копия платформы не пишет, и ни одна из них не восстанавливается: «files\/dynamodb-endpoint\.json»/;
    await expect(verifyBackup(file)).rejects.toThrow(refusal);
    const dataDir = join(root, "endpoint-restored");
    await expect(restoreBackup(file, dataDir)).rejects.toThrow(refusal);
    expect(existsSync(dataDir)).toBe(false);
    expect(existsSync(join(dataDir, "dynamodb-endpoint.json"))).toBe(false);
    const verified = await runAdmin(dataDir, ["verify-backup", file]);
    expect(verified.status).toBe(1);
    expect(verified.stderr + verified.stdout).toMatch(refusal);
    const restored = await runAdmin(dataDir, ["restore", "--from", file]);
    expect(restored.status).toBe(1);
    expect(restored.stderr + restored.stdout).toMatch(refusal);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("with parts that would leave the folder or that a backup never writes: refused and named, none written", async () => {
    const file = await archive("escape", [
      { name: "dynamodb/000001.jsonl", bytes: records(2) },
      blob,
      { name: "files/../escaped.txt", bytes: Buffer.from("outside") },
      { name: "files/blobs/../../../escaped-too.txt", bytes: Buffer.from("outside") },
      { name: "files/dynamodb/000005.ldb", bytes: Buffer.from("engine") },
      { name: "files/backups/fugitive-backup-2026.tar.gz", bytes: Buffer.from("nested") },
      { name: "other/thing.txt", bytes: Buffer.from("?") },
    ]);
    const dataDir = join(root, "escape", "restored");
    const error = await restoreBackup(file, dataDir).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /не пишет, и ни одна из них не восстанавливается: «files\/\.\.\/escaped\.txt», «files\/blobs\/\.\.\/\.\.\/\.\.\/escaped-too\.txt», «files\/dynamodb\/000005\.ldb», «files\/backups\/fugitive-backup-2026\.tar\.gz», «other\/thing\.txt»/,
    );
    expect(existsSync(join(root, "escape", "escaped.txt"))).toBe(false);
    expect(existsSync(join(root, "escaped-too.txt"))).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("with one line longer than a record can be (the 600 MB line, scaled): verify-backup refuses it naming the part, restore too, without a RangeError", async () => {
    const long = Buffer.concat([records(2), Buffer.from(`["item-t~long","${"x".repeat(MAX_RECORD_BYTES)}"]\n`)]);
    const file = await archive("long-line", [{ name: "dynamodb/000001.jsonl", bytes: long }, blob]);
    const refusal = `в части dynamodb/000001.jsonl запись 3 длиннее ${MAX_RECORD_BYTES / 1024 / 1024} МБ: резервная копия платформы таких не пишет`;
    await expect(verifyBackup(file)).rejects.toThrow(refusal);
    const dataDir = join(root, "long-restored");
    await expect(restoreBackup(file, dataDir)).rejects.toThrow(refusal);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("a well-formed archive of 2 500 records in two parts restores, its file and its counts as listed", async () => {
    const file = await archive("good", [
      { name: "dynamodb/000001.jsonl", bytes: records(1_500) },
      { name: "dynamodb/000002.jsonl", bytes: records(1_000) },
      blob,
    ]);
    const dataDir = join(root, "good-restored");
    const manifest = await restoreBackup(file, dataDir);
    expect(manifest.dynamodb.records).toBe(2_500);
    expect(readFileSync(join(dataDir, "blobs/uploads/протокол.txt"), "utf8")).toBe("протокол 17");
    expect(existsSync(join(dataDir, "dynamodb-endpoint.json"))).toBe(false);
  });
});
