// The one Jotai store and the one query client, owned here so code outside React (the API
// client's 401 hook, sign-out) can reach them.
import { createStore } from "jotai";
import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "../api/client";

export const appStore = createStore();

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx will not change on retry; a dropped connection or a 5xx gets one more try.
      retry: (failures, error) => failures < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});
