// «Мониторинг» of a facility: a tile per working, and per place of the sensors without a
// working (the shaft's, the drainage line's, the main return's) — its methane meters against 0,9·W, W and A,
// its air and drainage flow, «нет данных N мин», the bound models' forecasts and the alert rule (D65) —
// kept current by the server's stream on the local host or a poll with the ETag every 15 s in AWS
// (docs/architecture.md). Advisory: protective cut-off stays with the mine's own АГК.
import { Alert, Col, Flex, Row, Typography } from "antd";
import { Link, useParams } from "react-router-dom";
import { ADVISORY_NOTE } from "@core/monitoring";
import { useLiveTiles } from "../../../api/live";
import { useCutoffs } from "../../../api/readingsAudit";
import { displayDateTime } from "../../../shared/dates";
import { LiveTileCard } from "./LiveTileCard";
import { actsNotReadOf } from "../texts/limitTexts";
import { useMethaneLimits } from "../../../api/journal";
import { MODE_TEXT } from "../texts/liveTexts";
import { MonitoringHead } from "../MonitoringHead";

export default function MonitoringPage() {
  const { facilityId = "" } = useParams();
  const live = useLiveTiles(facilityId);
  const tiles = live.view?.tiles ?? [];
  const limits = useMethaneLimits().data;
  return (
    <Flex vertical gap={16}>
      <MonitoringHead
        page="Мониторинг"
        facilityId={facilityId}
        current="monitoring"
        limits
        advisory={live.view?.advisory ?? ADVISORY_NOTE}
      />
      <Typography.Text type="secondary" role="status">
        {MODE_TEXT[live.mode]}
        {live.view ? `; данные на ${displayDateTime(live.view.now)}` : ""}
      </Typography.Text>
      {live.error && <Alert type="warning" showIcon title={`Обновления прерваны: ${live.error}. Повторяем…`} />}
      <UnconfirmedCutoffs facility={facilityId} />
      {/* What was taken and is not yet read into the events and the book: said, not shown as calm. */}
      {live.view?.processing && (
        <Alert type="info" showIcon title={`Плитки могут быть неполными: ${live.view.processing.text}`} data-testid="processing" />
      )}
      {live.view && tiles.length === 0 && (
        <Typography.Text>
          На площадке нет датчиков метана, скорости воздуха и расхода в работе: добавьте их в реестр датчиков.
        </Typography.Text>
      )}
      <Row gutter={[16, 16]}>
        {tiles.map((tile) => (
          <Col key={tile.place ?? `working:${tile.working}`} xs={24} lg={12} xxl={8}>
            <LiveTileCard facility={facilityId} tile={tile} />
          </Col>
        ))}
      </Row>
      {/* An act whose text was not read is said once a page, beside the act, not on each meter's norm. */}
      {actsNotReadOf(
        limits,
        tiles.flatMap((t) => t.meters),
      ).map((line) => (
        <Typography.Text key={line} type="secondary" data-testid="acts-not-read">
          {line}
        </Typography.Text>
      ))}
    </Flex>
  );
}

/** D104: the cut-offs not confirmed of the last 30 days still waiting for a cause or its confirmation. */
function UnconfirmedCutoffs({ facility }: { facility: string }) {
  const waiting = (useCutoffs(facility).data?.results ?? []).filter((c) => c.state !== "confirmed");
  if (waiting.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="cutoffs-alert"
      title={`Отключение не подтверждено: ${waiting.length}`}
      description={
        <Flex vertical gap={4}>
          {waiting.slice(0, 5).map((c) => (
            <Typography.Text key={c.id}>
              {displayDateTime(c.start)}: {c.text}
              {c.state === "answered" ? " — причина указана, ждет подтверждения" : ""}
            </Typography.Text>
          ))}
          <Link to={`/facilities/${facility}/readings-audit`}>Разобрать: «Отключения и ручные замеры»</Link>
        </Flex>
      }
    />
  );
}
