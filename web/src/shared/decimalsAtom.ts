import { atom } from "jotai";
import { readStoredDecimals } from "./decimals";

/** Decimal places for numeric inputs and results; mirrors local storage `comma` (other screens read it). */
export const decimalsAtom = atom<number>(readStoredDecimals());
