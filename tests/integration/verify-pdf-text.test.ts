// verify.py reads the hash passport.pdf prints through each font's ToUnicode map. pdfkit draws «ff»
// as one ligature glyph whose entry holds two code units («<0066 0066>»): a map read without it
// shifted every later glyph by one, so a hash with «ff» in it read as another text (gassy-mine's
// pack failed about one run in three, as often as its random hash held «ff»).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const VERIFY_DIR = fileURLToPath(new URL("../../functions/src/export/verify/", import.meta.url));

const cmapOf = (cmap: string): Record<string, string> => {
  const script = "import json, sys, verify; print(json.dumps(verify.pdf_cmap(sys.argv[1].encode())))";
  const out = spawnSync("python3", ["-c", script, cmap], { cwd: VERIFY_DIR, encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as Record<string, string>;
};

describe("verify.py's reading of a PDF font's ToUnicode map", () => {
  it("maps a ligature's glyph to its letters and keeps every later glyph its own", () => {
    const codes = cmapOf("beginbfrange\n<0000> <0003> [<0061> <0066 0066> <043b> <0030>]\nendbfrange");
    expect(codes).toEqual({ "0000": "a", "0001": "ff", "0002": "л", "0003": "0" });
  });

  it("reads a ligature in a bfchar entry too", () => {
    expect(cmapOf("beginbfchar\n<0005> <0066 0069>\nendbfchar")).toEqual({ "0005": "fi" });
  });
});
