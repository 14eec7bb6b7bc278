import { atom } from "jotai";
import { mediaMatches, NARROW_QUERY } from "../../shared/useMediaQuery";

/** Whether the side menu is collapsed; survives navigation, not a reload. A window narrower than
 *  the lg breakpoint starts collapsed (so the menu does not open and fold again on load). */
export const menuCollapsedAtom = atom(mediaMatches(NARROW_QUERY));
