// The side menu's items and the project screens. The menu comes from app/routes.tsx, the one route
// table, so a menu item never leads to a page that does not exist (docs/user-guide.md lists them all).

export interface MenuEntry {
  key: string;
  path: string;
  label: string;
  /** Shown to platform operators only (role "admin", get_me). */
  adminOnly?: boolean;
  /** One item per underground mine of the company: `path` holds «:facilityId» (facilityMenu). */
  perFacility?: boolean;
}

/** A facility the monitoring items are repeated for. */
export interface MenuFacility {
  id: string;
  name: string;
}

/** A side-menu item as shown: its path filled in, and its group (the mine's name, where the company has
 *  several mines), said once before the group's items. */
export interface ShownMenuEntry extends Omit<MenuEntry, "perFacility"> {
  group?: string;
}

/**
 * The menu as shown: each per-facility item once per mine, the mine's items together in the place of the
 * first of them, headed by the mine's name where there are several (the monitoring wing was
 * reached only through «Профиль» › «Площадки»). No mine: no monitoring items.
 */
export function facilityMenu(menu: readonly MenuEntry[], facilities: readonly MenuFacility[]): ShownMenuEntry[] {
  const shown: ShownMenuEntry[] = [];
  const perFacility = menu.filter((entry) => entry.perFacility);
  let placed = false;
  for (const { perFacility: each, ...entry } of menu) {
    if (!each) {
      shown.push(entry);
      continue;
    }
    if (placed) continue;
    placed = true;
    for (const facility of facilities) {
      for (const { perFacility: _, ...item } of perFacility) {
        shown.push({
          ...item,
          key: `${item.key}:${facility.id}`,
          path: item.path.replace(":facilityId", encodeURIComponent(facility.id)),
          ...(facilities.length > 1 ? { group: facility.name } : {}),
        });
      }
    }
  }
  return shown;
}

/** The item a path belongs to: the longest item path the pathname is or lies under
 *  (/projects/42/graphs: «Проекты»; /facilities/f/sensors/s/day: that mine's «Датчики»). */
export function currentMenuPath(entries: readonly Pick<MenuEntry, "path">[], pathname: string): string | undefined {
  let best: string | undefined;
  for (const { path } of entries) {
    if ((pathname === path || pathname.startsWith(`${path}/`)) && (!best || path.length > best.length)) best = path;
  }
  return best;
}

/** Screens under /projects/{projectId}/: the row click and the infographics button wait for these. */
export const PROJECT_SCREENS = {
  calculations: true,
  graphs: true,
  uncertainty: true,
} as const;
