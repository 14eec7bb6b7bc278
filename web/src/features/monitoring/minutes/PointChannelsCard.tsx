// «Каналы источников» of «Данные АГК»: each emission point's own channels — the sensors the
// register says measure it — and what a point lacking them lacks, since a point's month is computed from
// its own channels alone. A module of its own, loaded lazily by AgkDataPage, so the sensor places' table
// and the sensors' texts stay out of the page's initial JS (an earlier round's budget).
import { Card, Flex, Typography } from "antd";
import { SENSOR_PLACES } from "@core/sensor-places";
import { LoadError } from "../../../shared/LoadError";
import { keepSignsWithNumbers } from "../../../shared/text";
import { usePointChannels, type PointChannels } from "../../../api/monitoring";
import { kindText } from "../texts/sensorTexts";

/** One point's own channels, or what it lacks for a month. */
function PointChannelsLine({ point }: { point: PointChannels }) {
  const channels = point.channels.map((c) => `${c.code} (${kindText(c.kind)}; ${SENSOR_PLACES[c.place]})`).join(", ");
  return (
    <div data-testid="point-channels">
      <Typography.Text strong>{keepSignsWithNumbers(point.point_name)}</Typography.Text>
      <div>{channels ? `Каналы: ${channels}` : "Своих каналов нет"}</div>
      {point.lacks.length > 0 && (
        <Typography.Text type="warning">{`Месяц не считается: нет канала ${point.lacks.join(", ")}`}</Typography.Text>
      )}
    </div>
  );
}

export default function PointChannelsCard({ facilityId }: { facilityId: string }) {
  const channels = usePointChannels(facilityId);
  return (
    <Card title="Каналы источников">
      <Typography.Paragraph type="secondary">
        Месяц источника считается только по его собственным каналам — датчикам, у которых в реестре указано, что они измеряют этот источник
        (ствол, дегазационный трубопровод). Датчики лав и выработок измеряют воздух своего участка, а не источник.
      </Typography.Paragraph>
      {channels.isError && <LoadError what="каналы источников" message={channels.error.message} retry={() => channels.refetch()} />}
      <Flex vertical gap={12}>
        {channels.data?.map((point) => (
          <PointChannelsLine key={point.point} point={point} />
        ))}
        {channels.data?.length === 0 && (
          <Typography.Text type="secondary">Источников, которые измеряет АГК, у площадки нет</Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
