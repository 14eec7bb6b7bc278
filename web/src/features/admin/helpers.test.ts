import { fileSize } from "@server/contract";
import { describe, expect, it } from "vitest";
import { requisites, apiPath } from "../../api/documents";
import { fieldError } from "../../api/admin";
import { modelFileProblem, pdfProblem, videoType } from "./fileChecks";
import { refused } from "../../testing/refusal";

const MB = 1024 * 1024;

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe("admin form helpers", () => {
  it("puts a server detail «field: text» under that field, and nothing else", () => {
    expect(fieldError(refused(400, [["ogrn", "неверная контрольная цифра"]]), ["name", "ogrn"] as const)).toEqual({
      name: "ogrn",
      errors: ["неверная контрольная цифра"],
    });
    expect(fieldError(refused(409, "Компания «А» уже существует"), ["name"] as const)).toBeUndefined();
    expect(fieldError(refused(400, [["kind", "выберите вид"]]), ["name"] as const)).toBeUndefined();
    expect(fieldError(new Error("x"), ["name"] as const)).toBeUndefined();
  });

  it("refuses before sending what the server would refuse anyway", () => {
    expect(pdfProblem(file("a.pdf", "application/pdf"), 50 * MB)).toBeUndefined();
    expect(pdfProblem(file("a.pdf", ""), 50 * MB)).toBeUndefined();
    expect(pdfProblem(file("a.png", "image/png"), 50 * MB)).toBe("Ожидается файл PDF");
    expect(pdfProblem(file("a.pdf", "application/pdf", 0), 50 * MB)).toBe("Файл пуст");
    expect(pdfProblem(file("a.pdf", "application/pdf", 50 * MB + 1), 50 * MB)).toBe("Файл больше 50 МБ");
    expect(pdfProblem(file("a.pdf", "application/pdf", 2 * MB + 1), 2 * MB)).toBe("Файл больше 2 МБ");
    expect(videoType(file("a.mp4", "video/mp4"))).toBe("video/mp4");
    expect(videoType(file("a.WEBM", ""))).toBe("video/webm");
    expect(videoType(file("a.mov", "video/quicktime"))).toBeUndefined();
    expect(modelFileProblem(file("methane.json", "application/json"), 20 * MB)).toBeUndefined();
    expect(modelFileProblem(file("methane.TXT", ""), 20 * MB)).toBeUndefined();
    expect(modelFileProblem(file("methane.txt", "text/plain", 0), 20 * MB)).toBe("Файл пуст");
    expect(modelFileProblem(file("methane.txt", "text/plain", 20 * MB + 1), 20 * MB)).toMatch(/^Файл модели больше 20 МБ/);
  });
});

describe("documents page helpers", () => {
  it("writes requisites and sizes the Russian way", () => {
    expect(requisites({ number: "296-ФЗ", date: "2021-07-02" })).toBe("№ 296-ФЗ от 02.07.2021");
    expect(requisites({ number: "ГОСТ 2939-63", date: "" })).toBe("ГОСТ 2939-63");
    expect(requisites({ number: "", date: "" })).toBe("");
    expect(fileSize(20_000)).toBe("20 КБ");
    expect(fileSize(500 * MB)).toBe("500 МБ");
    expect(fileSize(300 * 1024)).toBe("300 КБ");
    expect(fileSize(5 * 1024 * 1024 + 200_000)).toBe("5,2 МБ");
    expect(apiPath("/api/v1/documents/fz-296/download/")).toBe("v1/documents/fz-296/download/");
  });
});
