// a sensor's code with a character that shows as nothing («а\u200Bб» reads as «аб» in
// the register, the journal and their files) is refused, naming the field.
import { describe, expect, it } from "vitest";
import { sensorCreateSchema } from "./sensor";

const body = (code: string) => ({ code, kind: "methane", point: "p1" });

describe("a sensor's code", () => {
  it.each(["a\u200Bb", "М\u200D-7", "М-\uFEFF7", "М\u00AD-7", "М\u2060-7"])("refuses %j: a character that shows as nothing", (code) => {
    const parsed = sensorCreateSchema.safeParse(body(code));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toContainEqual([
      "code",
      "код не может содержать невидимые символы (нулевой ширины, мягкий перенос)",
    ]);
  });

  it("takes a code as the mine's АГК writes it", () => {
    expect(sensorCreateSchema.safeParse(body("М-7 (лава 24-12)")).success).toBe(true);
  });
});
