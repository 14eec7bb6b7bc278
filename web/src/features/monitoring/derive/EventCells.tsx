// The «События» table's tagged cells: an event's kind and level, and «квитировано, продолжается», and the
// card that holds the table. They load with the table (EventsPage.tsx), so antd's Tag and Card (with the
// tabs and skeleton Card brings, some 25 KB gzip) stay out of the page's initial JS (tests/web/bundle.test.ts).
import type { ReactNode } from "react";
import { Card, Space, Tag, Typography } from "antd";
import { EVENT_KIND_LABELS, EVENT_LEVEL_LABELS, faultText, type EventLevel } from "@core/monitoring-events";
import type { SensorEvent } from "../../../api/monitoring";
import { number } from "../texts/offerTexts";

const LEVEL_COLOURS: Record<EventLevel, string> = { pre_warning: "gold", warning: "orange", alarm: "red" };

/** A forecast event's horizon, the probability that raised it and whether it came true (D65). */
function forecastText(f: NonNullable<SensorEvent["forecast"]>) {
  const came = f.came_true === null ? "еще неизвестно" : f.came_true ? "да" : "нет";
  return `на ${f.horizon_min} мин, P ${number(f.probability, 2)}, сбылся: ${came}`;
}

/** The card «События» around the events' table. */
export function EventsCard({ title, children }: { title: string; children: ReactNode }) {
  return <Card title={title}>{children}</Card>;
}

export function EventKindCell({ event: e }: { event: SensorEvent }) {
  // D102–D105: a reading questioned, its sentence naming the other meter where there is one.
  if (e.kind === "suspect")
    return (
      <Space size={4} wrap>
        <Tag color="geekblue">{EVENT_KIND_LABELS.suspect}</Tag>
        {e.suspect && <Typography.Text type="secondary">{suspectText(e.suspect)}</Typography.Text>}
      </Space>
    );
  if (e.kind === "stale") return <Tag>{EVENT_KIND_LABELS.stale}</Tag>;
  if (e.kind === "fault")
    return (
      <Space size={4} wrap>
        <Tag color="magenta">{EVENT_KIND_LABELS.fault}</Tag>
        {e.fault && <Typography.Text type="secondary">{faultText(e.fault)}</Typography.Text>}
      </Space>
    );
  const level = e.level as EventLevel;
  return (
    <Space size={4} wrap>
      {e.kind === "forecast" && <Tag color="purple">{EVENT_KIND_LABELS.forecast}</Tag>}
      <Tag color={LEVEL_COLOURS[level]}>{EVENT_LEVEL_LABELS[level]}</Tag>
      {e.forecast && <Typography.Text type="secondary">{forecastText(e.forecast)}</Typography.Text>}
    </Space>
  );
}

/** A suspect event's sentence, with «нужен ручной замер» where it asks one. */
export function suspectText(s: NonNullable<SensorEvent["suspect"]>) {
  return s.asks_hand_measurement && !s.text.includes("ручным замером") ? `${s.text}; нужен ручной замер` : s.text;
}

/** acknowledged but still going, it stays listed and says so. */
export function StillGoingTag() {
  return <Tag color="volcano">квитировано, продолжается</Tag>;
}
