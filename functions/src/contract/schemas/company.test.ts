import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import fc from "fast-check";
import { companyCreateSchema, companyPatchSchema, isValidInn, isValidOgrn, isValidPhone, KPP_RE, requisiteProblem } from "./company";

/** An issue as the answer's detail says it: at its field (the issue's path), the schema's text. */
const said = (issue: { path: PropertyKey[]; message: string }) => `${issue.path.map(String).join(".")}: ${issue.message}`;

describe("ИНН check digits and КПП format", () => {
  it.each([
    ["7707083893", true, "ПАО Сбербанк"],
    ["7736050003", true, "ПАО «Газпром»"],
    ["500100732259", true, "12 digits"],
    ["7707083894", false, "wrong check digit"],
    ["500100732258", false, "wrong second check digit"],
    ["770708389", false, "9 digits"],
    ["77070838X3", false, "a letter"],
  ])("%s → %s (%s)", (inn, valid) => expect(isValidInn(inn)).toBe(valid));

  it("takes КПП as 4 digits, 2 digits or capital letters, 3 digits", () => {
    expect(["770701001", "4205AB001"].every((kpp) => KPP_RE.test(kpp))).toBe(true);
    expect(["77070100", "7707ab001", "770701001 "].some((kpp) => KPP_RE.test(kpp))).toBe(false);
  });

  it("refuses ИНН and КПП made of zeros: 0000 is no tax office's code", () => {
    expect(isValidInn("0000000000")).toBe(true); // the check digits alone let it through
    for (const [field, value] of [
      ["inn", "0000000000"],
      ["inn", "000000000000"],
      ["kpp", "000000000"],
    ] as const) {
      expect(requisiteProblem(field, value)).toMatch(/с кодом налогового органа 0000 не выдается/);
      expect(companyPatchSchema.safeParse({ [field]: value }).error!.issues.map((i) => i.path.join("."))[0]).toBe(field);
    }
    expect(requisiteProblem("inn", " 7707083893 ")).toBeUndefined();
    expect(requisiteProblem("kpp", "")).toBeUndefined();
  });

  it("refuses a wrong ИНН or КПП in the company body, naming the field", () => {
    const issues = companyCreateSchema.safeParse({ name: "Шахта", inn: "7707083894", kpp: "12" }).error!.issues.map(said);
    expect(issues.some((m) => m.startsWith("inn: "))).toBe(true);
    expect(issues.some((m) => m.startsWith("kpp: "))).toBe(true);
  });
});

describe("ОГРН and ОГРНИП check digits", () => {
  it.each([
    ["1027700132195", "ПАО Сбербанк"],
    ["1027700070518", "ПАО «Газпром»"],
    ["1244205001237", "демо-компания"],
    ["304500116000157", "ОГРНИП"],
  ])("accepts %s (%s)", (ogrn) => expect(isValidOgrn(ogrn)).toBe(true));

  it.each([
    ["1027700132194", "wrong check digit"],
    ["102770013219", "12 digits"],
    ["10277001321950", "14 digits"],
    ["304500116000158", "wrong ОГРНИП check digit"],
    ["1O27700132195", "a letter O"],
    ["", "empty"],
  ])("refuses %s (%s)", (ogrn) => expect(isValidOgrn(ogrn)).toBe(false));

  it("takes the 13-digit rule (mod 11) and the 15-digit rule (mod 13) for any body", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{11}$/), fc.stringMatching(/^[1-9]\d{13}$/), (body12, body14) => {
        const ogrn = body12 + String((BigInt(body12) % 11n) % 10n);
        const ogrnip = body14 + String((BigInt(body14) % 13n) % 10n);
        const wrong = body12 + String((((BigInt(body12) % 11n) % 10n) + 1n) % 10n);
        return isValidOgrn(ogrn) && isValidOgrn(ogrnip) && !isValidOgrn(wrong);
      }),
    );
  });
});

describe("company requisites schema", () => {
  const issues = (value: unknown) => {
    const result = z.safeParse(companyCreateSchema, value);
    return result.success ? [] : result.error.issues.map(said);
  };

  it("accepts full requisites and empty optional fields", () => {
    expect(
      issues({
        name: "Шахта",
        email: "info@mine.example",
        ogrn: "1027700132195",
        okved: "05.10",
        region: "Кузбасс",
        postal_address: "650000",
      }),
    ).toEqual([]);
    expect(issues({ name: "Шахта", ogrn: "", okved: "", email: "" })).toEqual([]);
    expect(issues({ name: "Шахта", okved: "05.10.1" })).toEqual([]);
    expect(issues({ name: "Шахта", okved: "46.71.11" })).toEqual([]);
  });

  it("names the field of every broken rule", () => {
    expect(issues({ name: "  " })).toEqual(["name: укажите название компании"]);
    expect(issues({ name: "Шахта", ogrn: "1027700132194" })[0]).toMatch(/^ogrn: /);
    expect(issues({ name: "Шахта", okved: "5.10" })[0]).toMatch(/^okved: /);
    expect(issues({ name: "Шахта", okved: "05.10.123" })[0]).toMatch(/^okved: /);
    expect(issues({ name: "Шахта", email: "not-an-email" })[0]).toMatch(/^email: /);
  });

  it("lets an edit send only what changes", () => {
    expect(z.safeParse(companyPatchSchema, { region: "Кузбасс" }).success).toBe(true);
    expect(z.safeParse(companyPatchSchema, { name: "" }).success).toBe(false);
  });
});

describe("the person responsible for the report (methodology 8.1)", () => {
  it.each([
    ["+7 (3842) 12-34-56", true],
    ["83842123456", true],
    ["12-34", false],
    ["+7 3842 12345678901", false],
    ["звонить Ивану", false],
    ["+7 (3842) 12-34-56 доб. 5", false],
  ])("phone %s → %s", (phone, valid) => expect(isValidPhone(phone)).toBe(valid));

  it("takes the name, position, phone and e-mail, refusing a wrong phone or e-mail by the field's name", () => {
    const ok = companyPatchSchema.parse({
      responsible_name: " Петров Иван Сергеевич ",
      responsible_position: "Главный эколог",
      responsible_phone: "+7 (3842) 12-34-56",
      responsible_email: "petrov@ugol.example",
    });
    expect(ok.responsible_name).toBe("Петров Иван Сергеевич");
    const issues = companyPatchSchema.safeParse({ responsible_phone: "12", responsible_email: "petrov" }).error!.issues.map(said);
    expect(issues.some((m) => m.startsWith("responsible_phone: "))).toBe(true);
    expect(issues.some((m) => m.startsWith("responsible_email: "))).toBe(true);
    expect(companyPatchSchema.safeParse({ responsible_phone: "", responsible_email: "" }).success).toBe(true);
  });
});
