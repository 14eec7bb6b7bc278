// D94 where a sensor is shown: its latest check failed («датчик не прошел проверку») or its
// check is overdue («проверка просрочена на N дн.»). On a «Мониторинг» tile, its working's sensors, each
// opening the sensor's checks; in the sensor register, the row's own. The facility's states are one
// query for all tiles and rows.
import { Space, Tag, Typography } from "antd";
import { Link } from "react-router-dom";
import { useCheckStates } from "../../../api/instruments";

export default function CheckProblems({
  facility,
  working,
  sensor,
  sensors,
}: {
  facility: string;
  working?: string;
  sensor?: string;
  /** A place's tile: its sensors, listed as a working's are. */
  sensors?: readonly string[];
}) {
  const states = useCheckStates(facility);
  const flagged = (states.data?.sensors ?? []).filter(
    (s) =>
      (working === undefined || s.working === working) &&
      (sensor === undefined || s.sensor === sensor) &&
      (sensors === undefined || sensors.includes(s.sensor)) &&
      s.problems.length > 0,
  );
  if (flagged.length === 0) return null;
  const tags = (problems: readonly string[]) =>
    problems.map((p) => (
      <Tag key={p} color="red" style={{ whiteSpace: "normal" }}>
        {p}
      </Tag>
    ));
  if (sensor !== undefined)
    return (
      <Space size={2} wrap>
        {tags(flagged[0].problems)}
      </Space>
    );
  return (
    <>
      {flagged.map((s) => (
        <Typography.Text key={s.sensor}>
          <Link to={`/facilities/${facility}/sensors/${s.sensor}/checks`}>{s.code}</Link> {tags(s.problems)}
        </Typography.Text>
      ))}
    </>
  );
}
