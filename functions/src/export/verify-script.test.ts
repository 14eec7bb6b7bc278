// the security review's R9: the published SHA-256 of verify.py is the file's, wherever it is published.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERIFY_PY_SHA256 } from "./verify-script";

const file = (path: string) => readFileSync(new URL(path, import.meta.url));

describe("the published verify.py (the security review's R9)", () => {
  it("is the script the packs carry: its SHA-256 is the one GET v1/signing-keys/ serves and docs/security.md prints", () => {
    const sha = createHash("sha256").update(file("./verify/verify.py")).digest("hex");
    expect(VERIFY_PY_SHA256).toBe(sha);
    expect(file("../../../docs/security.md").toString("utf8")).toContain(`\`${sha}\``);
  });
});
