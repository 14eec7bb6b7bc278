// Streebog (GOST R 34.11-2012) in TypeScript against `openssl dgst` with the GOST engine over random
// data of every length around the block's edges and 3 MB: in the integration tier (vitest.config.ts's
// PROCESS_TESTS), as it starts openssl; the standard's examples are streebog.test.ts's.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requireGostEngine } from "../../../../tests/support/gost";
import { streebog } from "./streebog";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("Streebog", () => {
  it("equals `openssl dgst -md_gost12_256/-md_gost12_512` (the GOST engine) on random files of every length near a block's edges and on 3 MB", () => {
    requireGostEngine();
    const dir = mkdtempSync(join(tmpdir(), "streebog-"));
    try {
      const lengths = [0, 1, 31, 32, 33, 55, 56, 63, 64, 65, 127, 128, 129, 191, 192, 193, 1000, 4096, 3 * 1024 * 1024 + 17];
      const files = lengths.map((length, k) => {
        const file = join(dir, `f${k}.bin`);
        writeFileSync(file, randomBytes(length));
        return { file, length };
      });
      for (const bits of [256, 512] as const) {
        const out = execFileSync("openssl", ["dgst", "-engine", "gost", `-md_gost12_${bits}`, "-r", ...files.map((f) => f.file)], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          timeout: 60_000,
        });
        const theirs = new Map(
          out
            .trim()
            .split("\n")
            .map((line) => {
              const [digest, name] = line.split(/\s+\*?/);
              return [name, digest] as const;
            }),
        );
        for (const { file, length } of files) {
          const bytes = new Uint8Array(readFileSync(file));
          expect(hex(streebog(bits, bytes)), `${bits} bits, ${length} bytes`).toBe(theirs.get(file));
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
