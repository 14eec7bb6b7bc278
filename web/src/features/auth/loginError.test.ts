import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/client";
import { loginErrorText } from "./loginError";

describe("loginErrorText", () => {
  it("shows the server's sentence for wrong credentials", () => {
    expect(loginErrorText(new ApiError(401, "Неверный логин или пароль"))).toBe("Неверный логин или пароль");
  });

  it("shows the server's sentence for too many attempts, or a Russian one if it sent none", () => {
    expect(loginErrorText(new ApiError(429, "Слишком много попыток входа, подождите 60 с"))).toBe(
      "Слишком много попыток входа, подождите 60 с",
    );
    expect(loginErrorText(new ApiError(429, "Ошибка сервера (429)"))).toBe("Слишком много попыток входа. Подождите и попробуйте снова.");
  });

  it("prefixes other failures so the user knows the sign-in did not happen", () => {
    expect(loginErrorText(new ApiError(500, "Внутренняя ошибка сервера"))).toBe("Не удалось войти: Внутренняя ошибка сервера");
  });

  it("asks for the Guardant code first, then passes on the server's refusal of a wrong one", () => {
    const refusal = new ApiError(401, "Неверный код ключа Guardant", "guardant_required");
    expect(loginErrorText(refusal, "")).toBe("Для входа введите код ключа Guardant");
    expect(loginErrorText(refusal, "1111")).toBe("Неверный код ключа Guardant");
  });
});
