// The side menu's items: links to the screens and the sign-out button, in the colours of antd's
// dark inline menu. Plain links rather than antd's Menu: navigation is what a link is for (open in
// a new tab, the address on hover), and the Menu with its overflow and popup machinery was a tenth
// of every page's script.
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import "./navigation.css";

export interface NavigationItem {
  path: string;
  label: string;
  icon: ReactNode;
  /** The group it belongs to (a mine's name), said once before the group's first item. */
  group?: string;
}

interface Props {
  items: readonly NavigationItem[];
  /** The path of the item to highlight, if any. */
  current?: string;
  /** Icons only, the label in the tooltip (the folded side menu). */
  collapsed: boolean;
  exitIcon: ReactNode;
  onExit(): void;
}

export function Navigation({ items, current, collapsed, exitIcon, onExit }: Props) {
  const className = collapsed ? "shell-nav shell-nav-collapsed" : "shell-nav";
  return (
    <nav aria-label="Главное меню" className={className}>
      <ul>
        {items.map((item, i) => {
          const named = item.group ? `${item.label} — ${item.group}` : item.label;
          return (
            <li key={item.path}>
              {item.group && item.group !== items[i - 1]?.group && <div className="shell-nav-group">{item.group}</div>}
              <Link
                to={item.path}
                aria-current={item.path === current ? "page" : undefined}
                title={collapsed ? named : undefined}
                aria-label={collapsed ? named : undefined}
              >
                <span className="shell-nav-icon">{item.icon}</span>
                <span className="shell-nav-label">{item.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <ul>
        <li>
          <button type="button" onClick={onExit} title={collapsed ? "Выход" : undefined} aria-label={collapsed ? "Выход" : undefined}>
            <span className="shell-nav-icon">{exitIcon}</span>
            <span className="shell-nav-label">Выход</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
