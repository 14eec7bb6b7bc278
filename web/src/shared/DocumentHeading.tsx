// A normative document in a list (the public /documents and the administrator's tab): its kind as a
// tag and its requisites in grey on one line, any mark after them, its title (`children`) under them.
import type { ReactNode } from "react";
import { Space, Tag, Typography } from "antd";

interface Props {
  kind: string;
  requisites: string;
  /** Space between the lines, px. */
  gap: number;
  mark?: ReactNode;
  children: ReactNode;
}

export function DocumentHeading({ kind, requisites, gap, mark, children }: Props) {
  return (
    <Space orientation="vertical" size={gap}>
      <Space size={6} wrap>
        <Tag color="blue">{kind}</Tag>
        <Typography.Text type="secondary">{requisites}</Typography.Text>
        {mark}
      </Space>
      {children}
    </Space>
  );
}
