// «Мониторинг › Схема» (D106): each section drawn by the product as SVG from the register, its meters in
// airflow order (D103) from the air entering to the return — each with its place, value and state (norm,
// W/A, gassing, questioned, out of verification, silent) — the junctions of fresh air and the shearer's run
// and position. Drawn top to bottom, so a section reads on a 390 px phone as on a wide screen; printed with
// the shift handover («Печать»: the browser's print of this page). Its data: GET v1/telemetry/scheme/.
// Advisory: protective cut-off stays with the mine's own АГК.
import type { ReactNode } from "react";
import { Alert, Button, Col, Flex, Row, Space, Tag, Typography } from "antd";
import { useParams } from "react-router-dom";
import { ADVISORY_NOTE } from "@core/monitoring";
import { useScheme, type SchemeMeter, type SchemeSection } from "../../../api/monitoring";
import { displayDateTime } from "../../../shared/dates";
import { LoadError } from "../../../shared/LoadError";
import { MonitoringHead } from "../MonitoringHead";

/** A state's colour and word on the scheme and in its legend. */
const STATES: Record<SchemeMeter["state"], { colour: string; word: string }> = {
  normal: { colour: "#389e0d", word: "норма" },
  pre_warning: { colour: "#d4b106", word: "≥ 0,9·W" },
  warning: { colour: "#d46b08", word: "≥ W" },
  alarm: { colour: "#cf1322", word: "≥ A" },
  gassing: { colour: "#a8071a", word: "загазирование" },
  silent: { colour: "#8c8c8c", word: "нет показаний" },
};
const QUESTIONED = "#722ed1";
const OUT_OF_VERIFICATION = "#ad4e00";
const FRESH_AIR = "#08979c";

const WIDTH = 360;
const LINE_X = 22;
const BOX_X = 44;
const BOX_W = WIDTH - BOX_X - 4;
/** Characters of an 11 px line in the box (Russian text in the page's sans-serif). */
const LINE_CHARS = 44;

/** `text` cut into lines of at most `width` characters, at spaces. */
function wrap(text: string, width = LINE_CHARS): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A meter's lines under its code: its state, then why it is questioned and out of verification. */
function meterLines(m: SchemeMeter): { text: string; colour: string }[] {
  return [
    ...wrap(m.state_label).map((text) => ({ text, colour: STATES[m.state].colour })),
    ...(m.questioned ? wrap(`под сомнением: ${m.questioned}`).map((text) => ({ text, colour: QUESTIONED })) : []),
    ...(m.out_of_verification ? wrap(m.out_of_verification).map((text) => ({ text, colour: OUT_OF_VERIFICATION })) : []),
  ];
}

function shearerText(s: NonNullable<SchemeSection["shearer"]>): string {
  const run = s.running === null ? "состояние неизвестно" : s.running ? "работает" : "стоит";
  const position = s.position_m === null ? "" : `, ${s.position_m.toLocaleString("ru-RU", { maximumFractionDigits: 1 })} м от начала лавы`;
  return `Комбайн${s.run_code ? ` ${s.run_code}` : ""}: ${run}${position}`;
}

/** One section's air path as SVG: the air's line top to bottom, a node and a box per meter. */
export function SectionSvg({ section }: { section: SchemeSection }) {
  const parts: ReactNode[] = [];
  let y = 8;
  parts.push(
    <text key="in" x={LINE_X + 10} y={y + 12} fontSize={12} fill="#595959">
      {section.mine_returns ? "Исходящая струя участков ↓" : "Свежая струя ↓"}
    </text>,
  );
  y += 24;
  if (section.shearer) {
    const running = section.shearer.running;
    const lines = wrap(shearerText(section.shearer), 40);
    const height = 10 + lines.length * 15;
    parts.push(
      <g key="shearer" data-testid="scheme-shearer">
        <rect x={BOX_X} y={y} width={BOX_W} height={height} rx={4} fill={running ? "#fff7e6" : "#fafafa"} stroke="#d9d9d9" />
        {lines.map((line, k) => (
          <text key={line} x={BOX_X + 8} y={y + 17 + k * 15} fontSize={12} fill="#262626">
            {line}
          </text>
        ))}
      </g>,
    );
    y += height + 8;
  }
  const top = y;
  section.meters.forEach((m, i) => {
    if (m.fresh_air_joins) {
      parts.push(
        <g key={`fresh-${m.sensor}`}>
          <line x1={2} y1={y + 8} x2={LINE_X - 4} y2={y + 8} stroke={FRESH_AIR} strokeWidth={2} markerEnd="url(#scheme-arrow-fresh)" />
          <text x={BOX_X} y={y + 12} fontSize={11} fill={FRESH_AIR}>
            свежий воздух поступает
          </text>
        </g>,
      );
      y += 20;
    }
    const lines = meterLines(m);
    const height = 40 + lines.length * 14;
    const colour = STATES[m.state].colour;
    parts.push(
      <g key={m.sensor} data-testid="scheme-meter" data-code={m.code}>
        <circle cx={LINE_X} cy={y + 18} r={7} fill={colour} stroke="#fff" strokeWidth={2} />
        <rect
          x={BOX_X}
          y={y}
          width={BOX_W}
          height={height}
          rx={6}
          fill="#fff"
          stroke={m.questioned ? QUESTIONED : colour}
          strokeWidth={m.questioned ? 2 : 1.5}
          strokeDasharray={m.questioned ? "6 3" : undefined}
        />
        <text x={BOX_X + 8} y={y + 16} fontSize={13} fontWeight={600} fill="#262626">
          {`${i + 1}. ${m.code}`}
        </text>
        <text x={BOX_X + BOX_W - 8} y={y + 16} fontSize={13} fontWeight={600} fill={colour} textAnchor="end">
          {m.value_text}
        </text>
        <text x={BOX_X + 8} y={y + 32} fontSize={11} fill="#595959">
          {m.place_label.length > LINE_CHARS ? `${m.place_label.slice(0, LINE_CHARS - 1)}…` : m.place_label}
        </text>
        {lines.map((line, k) => (
          <text key={`${line.text}-${k}`} x={BOX_X + 8} y={y + 48 + k * 14} fontSize={11} fill={line.colour}>
            {line.text}
          </text>
        ))}
      </g>,
    );
    y += height + 12;
  });
  const height = y + 22;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      style={{ maxWidth: 480, display: "block" }}
      role="img"
      aria-label={`Схема: ${section.name}, датчики по ходу воздуха: ${section.meters.map((m) => `${m.code} ${m.value_text}, ${m.state_label}`).join("; ")}`}
    >
      <defs>
        <marker id="scheme-arrow" viewBox="0 0 10 10" refX={5} refY={5} markerWidth={3} markerHeight={3} orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#8c8c8c" />
        </marker>
        <marker id="scheme-arrow-fresh" viewBox="0 0 10 10" refX={5} refY={5} markerWidth={6} markerHeight={6} orient="auto">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={FRESH_AIR} />
        </marker>
      </defs>
      <line x1={LINE_X} y1={top - 6} x2={LINE_X} y2={y} stroke="#bfbfbf" strokeWidth={4} markerEnd="url(#scheme-arrow)" />
      {parts}
      <text x={LINE_X + 10} y={y + 14} fontSize={12} fill="#595959">
        {section.mine_returns ? "На поверхность" : "В исходящую крыла, шахты"}
      </text>
    </svg>
  );
}

function Legend() {
  return (
    <Space wrap size={[8, 4]} aria-label="Условные обозначения">
      {Object.values(STATES).map((s) => (
        <Tag key={s.word} color={s.colour}>
          {s.word}
        </Tag>
      ))}
      <Tag color={QUESTIONED}>под сомнением (пунктир)</Tag>
      <Tag color={OUT_OF_VERIFICATION}>вне поверки</Tag>
      <Tag color={FRESH_AIR}>свежий воздух</Tag>
    </Space>
  );
}

export default function SchemePage() {
  const { facilityId = "" } = useParams();
  const scheme = useScheme(facilityId);
  const sections = scheme.data?.sections ?? [];
  return (
    <Flex vertical gap={16}>
      <MonitoringHead
        title={`Мониторинг › Схема${scheme.data ? `: ${scheme.data.facility_name}` : ""}`}
        facilityId={facilityId}
        current="scheme"
        advisory={scheme.data?.advisory ?? ADVISORY_NOTE}
      />
      <Flex wrap gap={8} align="center" justify="space-between">
        <Typography.Text type="secondary" role="status">
          Датчики каждого участка по ходу воздуха, от свежей струи к исходящей
          {scheme.data ? `; данные на ${displayDateTime(scheme.data.now)}` : ""}
        </Typography.Text>
        <Button onClick={() => window.print()} className="no-print">
          Печать (к передаче смены)
        </Button>
      </Flex>
      <Legend />
      {scheme.isError && <LoadError what="схему" message={scheme.error.message} retry={() => void scheme.refetch()} />}
      {scheme.data && sections.length === 0 && (
        <Alert
          type="info"
          showIcon
          title="В реестре нет датчиков на пути воздуха: укажите участок (или выработку) и место датчиков на странице «Датчики»."
        />
      )}
      <Row gutter={[16, 16]}>
        {sections.map((section) => (
          <Col key={section.name} xs={24} md={12} xxl={8} data-testid="scheme-section">
            <Flex vertical gap={4}>
              <Typography.Title level={4} style={{ margin: 0 }}>
                {section.name}
              </Typography.Title>
              <SectionSvg section={section} />
            </Flex>
          </Col>
        ))}
      </Row>
    </Flex>
  );
}
