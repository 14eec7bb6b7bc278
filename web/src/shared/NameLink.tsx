// A name that opens something looks and acts as a link (docs/user-guide.md, Conventions of the screens):
// a project's name opens its calculations, a calculation's name its results. The link colour with
// antd's hover and focus styles, reachable by Tab and opened with Enter; a name that leads to a page
// is a real address (a middle click or Ctrl+click opens it in a new tab). The row around it may
// open the same on a click: the link's click does not reach it.
import type { KeyboardEvent, MouseEvent, ReactNode } from "react";
import { Tooltip, Typography } from "antd";
import { useNavigate } from "react-router-dom";

interface Props {
  children: ReactNode;
  /** The full name, shown in a tooltip when `children` shows it cut. */
  title?: string;
  /** The page the name leads to. */
  to?: string;
  /** What the name opens in place (a dialog). */
  onOpen?(): void;
}

const withModifier = (event: MouseEvent) => event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0;

export function NameLink({ children, title, to, onOpen }: Props) {
  const navigate = useNavigate();
  const open = (event: MouseEvent | KeyboardEvent) => {
    event.stopPropagation();
    event.preventDefault();
    onOpen?.();
  };
  const link = to ? (
    <Typography.Link
      href={to}
      onClick={(event) => {
        event.stopPropagation();
        if (withModifier(event)) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </Typography.Link>
  ) : (
    <Typography.Link
      role="button"
      tabIndex={0}
      onClick={open}
      onKeyDown={(event) => {
        if (event.key === "Enter" || event.key === " ") open(event);
      }}
    >
      {children}
    </Typography.Link>
  );
  return title ? <Tooltip title={title}>{link}</Tooltip> : link;
}
