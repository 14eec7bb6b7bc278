// When a thing was done and who did it, on two lines: the date and time, then the person in grey
// (the model tables' «Загружена» and «Обучена»).
import type { ReactNode } from "react";
import { Space, Typography } from "antd";
import { displayDateTime } from "./dates";

export function WhenWho({ at, who }: { at: string; who: ReactNode }) {
  return (
    <Space orientation="vertical" size={0}>
      <span>{displayDateTime(at)}</span>
      <Typography.Text type="secondary">{who}</Typography.Text>
    </Space>
  );
}
