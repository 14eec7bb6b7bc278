import { useMutation } from "@tanstack/react-query";
import { api, type ApiError, type LoginRequest } from "../../api/client";
import { signIn } from "../../app/session";

export function useLogin(onSignedIn: () => void) {
  return useMutation<unknown, ApiError, LoginRequest>({
    mutationFn: async (request) => {
      signIn(await api.login(request));
    },
    onSuccess: onSignedIn,
  });
}
