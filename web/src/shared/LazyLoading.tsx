import { Flex, Spin } from "antd";

/** What a part of a screen shows while its code is still loading (React.lazy + Suspense). */
export function LazyLoading({ label = "Загрузка…" }: { label?: string }) {
  return (
    <Flex justify="center" align="center" gap={12} style={{ padding: 24 }} role="status" aria-live="polite">
      <Spin size="small" />
      <span>{label}</span>
    </Flex>
  );
}
