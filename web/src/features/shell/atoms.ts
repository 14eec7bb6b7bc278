import { atom } from "jotai";

/** Whether the side menu is collapsed; survives navigation, not a reload. */
export const menuCollapsedAtom = atom(false);
