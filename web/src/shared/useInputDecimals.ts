// The decimals setting in React (docs/user-guide.md): re-renders when /settings saves a new value.
import { useAtomValue } from "jotai";
import { inputDecimals, type EntryMode } from "./decimals";
import { decimalsAtom } from "./decimalsAtom";

/** Decimals for numeric inputs and results of a create or edit form; see shared/decimals.ts. */
export function useInputDecimals(mode: EntryMode): number {
  // The atom only triggers the re-render: it holds the clamped value with the create fallback,
  // while local storage still tells a missing setting apart (2, not 4, when editing).
  useAtomValue(decimalsAtom);
  return inputDecimals(mode);
}
