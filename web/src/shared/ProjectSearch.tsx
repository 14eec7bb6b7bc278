// Search of the company's projects by name (Проекты, Экспорт). The text lives in the address
// (?search=), so reload and back keep it; typing filters after a pause, Enter at once, and a new
// search starts from page 1. The server matches any part of the name, in any case.
import { useEffect, useRef, useState } from "react";
import { Input } from "antd";
import { useUrlQuery } from "./urlState";
import { LIMITS } from "@server/contract";

const PAUSE_MS = 400;
export const PROJECT_SEARCH_MAX = LIMITS.text.projectSearch;

export function useProjectSearch(): string {
  return useUrlQuery().params.get("search")?.trim() ?? "";
}

export function ProjectSearch() {
  const { params, update } = useUrlQuery();
  const search = params.get("search") ?? "";
  const [text, setText] = useState(search);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Back, forward or a link changed the address: show what it searches for.
  useEffect(() => setText(search), [search]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const apply = (value: string, replace: boolean) => {
    clearTimeout(timer.current);
    const next = value.trim();
    if (next !== search.trim()) update({ search: next || undefined, page: undefined }, { replace });
  };

  return (
    <Input.Search
      aria-label="Поиск проекта по названию"
      placeholder="Поиск по названию"
      allowClear
      maxLength={PROJECT_SEARCH_MAX}
      value={text}
      onChange={(event) => {
        const value = event.target.value;
        setText(value);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => apply(value, true), PAUSE_MS);
      }}
      onSearch={(value) => apply(value, false)}
      style={{ width: 320, maxWidth: "100%" }}
    />
  );
}
