// Whether a CSS media query matches, kept in step with the window (rotation, resizing).
import { useSyncExternalStore } from "react";

/** Phones: below antd's md breakpoint (768 px). The menu becomes a drawer, charts and headings adapt. */
export const PHONE_QUERY = "(max-width: 767.98px)";
/** Below antd's lg breakpoint (992 px): the side menu starts collapsed to its icons. */
export const NARROW_QUERY = "(max-width: 991.98px)";

/** The query's answer now; false where there is no window (tests in Node). */
export function mediaMatches(query: string): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(query).matches;
}

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => mediaMatches(query),
    () => false,
  );
}

export const usePhone = (): boolean => useMediaQuery(PHONE_QUERY);

/** A user who asked the system for less motion (an accessibility setting of the OS or browser). */
export const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";
export const useReducedMotion = (): boolean => useMediaQuery(REDUCED_MOTION_QUERY);
