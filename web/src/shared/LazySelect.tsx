// antd's Select (~22 KB gzip with its virtual list) as a chunk of its own, fetched when a screen
// first shows one rather than before the screen can paint, as LazyTable does for the table.
import { lazy, Suspense } from "react";
import type { SelectProps } from "antd";

// lazy() loses the generic signature: the wrapper below restores it for callers.
const AntSelect = lazy(() => import("antd/es/select")) as unknown as (props: SelectProps<unknown>) => React.ReactElement;

export function Select<V>(props: SelectProps<V>) {
  return (
    <Suspense fallback={<span style={{ display: "inline-block", width: props.style?.width ?? 96, height: 32 }} />}>
      <AntSelect {...(props as unknown as SelectProps<unknown>)} />
    </Suspense>
  );
}
