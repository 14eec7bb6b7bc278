// verify.py reads the passport's PDF with zlib (functions/src/export/verify/verify.py, pdf_objects): a
// stream is its dictionary's /Length bytes. Compressed bytes end in a carriage return about once in 256
// streams; read up to «\r\nendstream» instead, such a stream lost its last byte and a genuine pack's
// passport.pdf was «не читается: … truncated stream» (verification-pack-forgeries.test.ts failed so
// once in a full run).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const VERIFY = fileURLToPath(new URL("../../functions/src/export/verify/verify.py", import.meta.url));

it("takes a FlateDecode stream whose compressed bytes end in a carriage return whole", () => {
  const script = `
import importlib.util, sys, zlib
spec = importlib.util.spec_from_file_location("verify", sys.argv[1])
verify = importlib.util.module_from_spec(spec)
spec.loader.exec_module(verify)
n = 0
while True:
    text = ("BT /F1 12 Tf 72 712 Td (строка %d) Tj ET" % n).encode("utf-8")
    packed = zlib.compress(text)
    if packed[-1:] == b"\\r":
        break
    n += 1
pdf = b"%PDF-1.3\\n1 0 obj\\n<< /Length " + str(len(packed)).encode() + b" /Filter /FlateDecode >>\\nstream\\n" + packed + b"\\nendstream\\nendobj\\n"
head, content = verify.pdf_objects(pdf)[1]
print(content == text, n)
`;
  const out = execFileSync("python3", ["-c", script, VERIFY], { encoding: "utf8" }).trim().split(" ");
  expect(out[0]).toBe("True");
  expect(Number(out[1])).toBeGreaterThanOrEqual(0);
});
