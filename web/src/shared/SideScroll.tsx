// A wide grid (a heat map of months) that scrolls sideways inside its card, not the page: when it is
// wider than its place it says so in words above it, and it opens scrolled to the cell marked
// `data-latest` (the latest month with data), so a phone shows the recent months first.
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { Typography } from "antd";

export const SIDE_SCROLL_HINT = "Таблица прокручивается вбок: проведите по ней, чтобы увидеть остальные месяцы";

export function SideScroll({ children, latest, testId }: { children: ReactNode; latest?: string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : undefined;
    observer?.observe(el);
    return () => observer?.disconnect();
  }, []);
  // Once per latest month: the user's own scrolling is left alone.
  useLayoutEffect(() => {
    const el = box.current;
    const cell = latest ? el?.querySelector<HTMLElement>("[data-latest]") : null;
    if (!el || !cell) return;
    const beyond = cell.getBoundingClientRect().right - el.getBoundingClientRect().right;
    if (beyond > 0) el.scrollLeft += beyond + 8;
  }, [latest]);
  return (
    <>
      {overflows && (
        <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8, fontSize: 12 }}>
          ← {SIDE_SCROLL_HINT} →
        </Typography.Text>
      )}
      <div ref={box} style={{ overflowX: "auto" }} data-testid={testId}>
        {children}
      </div>
    </>
  );
}
