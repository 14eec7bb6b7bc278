import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/client";
import { formatSize, requisites, apiPath } from "../documents/api";
import { fieldError } from "./api";
import { pdfProblem } from "./DocumentsTab";
import { MODEL_MAX_BYTES, modelFileProblem } from "./ForecastModelsTab";
import { videoType } from "./VideosTab";

const file = (name: string, type: string, size = 10) => new File([new Uint8Array(size)], name, { type });

describe("admin form helpers", () => {
  it("puts a server detail «field: text» under that field, and nothing else", () => {
    expect(fieldError(new ApiError(400, "ogrn: неверная контрольная цифра"), ["name", "ogrn"] as const)).toEqual({
      name: "ogrn",
      errors: ["неверная контрольная цифра"],
    });
    expect(fieldError(new ApiError(409, "Компания «А» уже существует"), ["name"] as const)).toBeUndefined();
    expect(fieldError(new ApiError(400, "kind: выберите вид"), ["name"] as const)).toBeUndefined();
    expect(fieldError(new Error("x"), ["name"] as const)).toBeUndefined();
  });

  it("refuses before sending what the server would refuse anyway", () => {
    expect(pdfProblem(file("a.pdf", "application/pdf"))).toBeUndefined();
    expect(pdfProblem(file("a.pdf", ""))).toBeUndefined();
    expect(pdfProblem(file("a.png", "image/png"))).toBe("Ожидается файл PDF");
    expect(pdfProblem(file("a.pdf", "application/pdf", 0))).toBe("Файл пуст");
    expect(videoType(file("a.mp4", "video/mp4"))).toBe("video/mp4");
    expect(videoType(file("a.WEBM", ""))).toBe("video/webm");
    expect(videoType(file("a.mov", "video/quicktime"))).toBeUndefined();
    expect(modelFileProblem(file("methane.json", "application/json"))).toBeUndefined();
    expect(modelFileProblem(file("methane.TXT", ""))).toBeUndefined();
    expect(modelFileProblem(file("methane.txt", "text/plain", 0))).toBe("Файл пуст");
    expect(modelFileProblem(file("methane.txt", "text/plain", MODEL_MAX_BYTES + 1))).toMatch(/^Файл модели больше 20 МБ/);
  });
});

describe("documents page helpers", () => {
  it("writes requisites and sizes the Russian way", () => {
    expect(requisites({ number: "296-ФЗ", date: "2021-07-02" })).toBe("№ 296-ФЗ от 2021-07-02");
    expect(requisites({ number: "ГОСТ 2939-63", date: "" })).toBe("ГОСТ 2939-63");
    expect(requisites({ number: "", date: "" })).toBe("");
    expect(formatSize(20_000)).toBe("20 КБ");
    expect(formatSize(5 * 1024 * 1024 + 200_000)).toBe("5,2 МБ");
    expect(apiPath("/api/v1/documents/fz-296/download/")).toBe("v1/documents/fz-296/download/");
  });
});
