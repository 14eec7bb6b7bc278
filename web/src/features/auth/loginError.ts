import type { ApiError } from "../../api/client";

export const GUARDANT_REQUIRED = "guardant_required";

/** The Russian sentence shown under the login form for a failed attempt. */
export function loginErrorText(error: ApiError, sentGuardantCode = ""): string {
  // The first refusal only means the key code is needed: no code was typed yet, none was wrong.
  if (error.code === GUARDANT_REQUIRED && sentGuardantCode === "") return "Для входа введите код ключа Guardant";
  // The server's own sentence when it sent one; "Ошибка сервера (429)" means it did not.
  if (error.status === 429) {
    return error.detail.startsWith("Ошибка сервера") ? "Слишком много попыток входа. Подождите и попробуйте снова." : error.detail;
  }
  if (error.status === 401 || error.status === 400 || error.status === 0) return error.detail;
  return `Не удалось войти: ${error.detail}`;
}
