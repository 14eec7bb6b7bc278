import { atom } from "jotai";
import { readAccessToken } from "../api/tokens";

/** The access token as the UI last saw it; the guard re-checks its expiry on every navigation. */
export const accessTokenAtom = atom<string | null>(readAccessToken());
