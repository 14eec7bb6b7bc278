import { useMutation } from "@tanstack/react-query";
import { api, ApiError, type LoginRequest } from "../../api/client";
import { signIn } from "./session";

export const GUARDANT_REQUIRED = "guardant_required";

export function useLogin(onSignedIn: () => void) {
  return useMutation<unknown, ApiError, LoginRequest>({
    mutationFn: async (request) => {
      signIn(await api.login(request));
    },
    onSuccess: onSignedIn,
  });
}

/** The Russian sentence shown under the login form for a failed attempt. */
export function loginErrorText(error: ApiError): string {
  if (error.status === 429) return error.detail.startsWith("Ошибка сервера") ? "Слишком много попыток входа. Подождите и попробуйте снова." : error.detail;
  if (error.status === 401 || error.status === 400 || error.status === 0) return error.detail;
  return `Не удалось войти: ${error.detail}`;
}
