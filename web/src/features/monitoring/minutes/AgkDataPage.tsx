// «Данные АГК» of a mine (methodology D61–D63): per emission point and month of a year, the completeness
// of its readings over the whole month as a heat map and the measured figures they give — volume, CH4
// content, t CH4, minutes valid, substituted and missing, the longest gap — each ended month accepted into
// a project with «Принять» (below 95 % with a reason); the month still running shown «месяц идет: N из M
// минут», never offered; an accepted month whose readings moved it since flagged «данные АГК изменились
// после принятия» and offered «Принять заново» while its year is not frozen. Advisory:
// protective cut-off stays with the mine's own АГК.
// Above them, each point's own channels (PointChannelsCard.tsx).
// On a phone the heat map scrolls inside its card with the points' names kept in sight, and each offer
// is a block of «label: value» lines (ResponsiveTable), «Принять» under it.
import { lazy, Suspense, useMemo, useState } from "react";
import { Card, Flex, Skeleton, Tooltip, Typography } from "antd";
import { useParams } from "react-router-dom";
import { OFFER_COMPLETENESS } from "@core/monitoring";
import { LoadError } from "../../../shared/LoadError";
import { YearField } from "../../../shared/YearField";
import { keepSignsWithNumbers } from "../../../shared/text";
import { useOffers, type Offer } from "../../../api/monitoring";
import { completenessFigure, monthText, percent, runningText } from "../texts/offerTexts";
import { MonitoringHead } from "../MonitoringHead";
import { MonthGrid } from "./MonthGrid";

// The acceptance dialog loads when opened: the page's first load stays within the initial-JS budget.
const AcceptDialog = lazy(() => import("./AcceptOfferDialog"));
// The points' channels load in a chunk of their own (the sensor places' table with them), a loading card meanwhile.
const PointChannelsCard = lazy(() => import("./PointChannelsCard"));
// The offers' table loads with its cells (tags, notes, «Принять»): the table itself loads lazily anyway.
const OffersTable = lazy(() => import("./OffersTable"));

/** Green at 95 % and above, amber below, red under a half. */
const shade = (share: number) => (share >= OFFER_COMPLETENESS ? "#b7eb8f" : share >= 0.5 ? "#ffe58f" : "#ffa39e");

export default function AgkDataPage() {
  const { facilityId = "" } = useParams();
  const [year, setYear] = useState(new Date().getFullYear());
  const offers = useOffers(facilityId, year);
  const [accepting, setAccepting] = useState<Offer | null>(null);
  const latest = offers.data?.reduce((last, o) => (o.month > last ? o.month : last), "");
  const points = useMemo(() => [...new Map((offers.data ?? []).map((o) => [o.point, o.point_name])).entries()], [offers.data]);
  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Данные АГК" facilityId={facilityId} current="agk-data" demo={offers.data?.some((o) => o.demo)} />
      <YearField year={year} onChange={setYear} />
      {offers.isError && <LoadError what="данные АГК" message={offers.error.message} retry={() => offers.refetch()} />}
      <Suspense fallback={<Card title="Каналы источников" loading />}>
        <PointChannelsCard facilityId={facilityId} />
      </Suspense>
      <Card title="Полнота данных по источникам и месяцам">
        <Typography.Paragraph type="secondary">
          Полнота здесь считается за весь месяц по часам компании: доля его минут с достоверными или замещенными значениями расхода и метана
          источника. На странице «Полнота данных датчиков» — по каждому датчику за дни его эксплуатации. Месяц, который еще идет, принимают
          после его окончания.
        </Typography.Paragraph>
        {points.length === 0 ? (
          <Typography.Text type="secondary">За {year} год показаний нет</Typography.Text>
        ) : (
          <MonthGrid
            label="Полнота данных"
            testId="offers-heat-map"
            year={year}
            latest={latest}
            rows={points}
            rowKey={([point]) => point}
            rowHead={([, name]) => keepSignsWithNumbers(name)}
            cell={([point], month) => {
              const offer = offers.data?.find((o) => o.point === point && o.month === month);
              return (
                <td key={month} style={{ padding: 2 }} data-latest={month === latest ? "" : undefined}>
                  <Tooltip
                    title={
                      !offer
                        ? `${monthText(month)}: нет данных`
                        : offer.in_progress
                          ? `${monthText(month)}: ${runningText(offer)}`
                          : `${monthText(month)}: ${percent(offer.completeness)}`
                    }
                  >
                    <div
                      style={{
                        width: 44,
                        height: 24,
                        background: !offer ? "#f0f0f0" : offer.in_progress ? "#e6f4ff" : shade(offer.completeness),
                        fontSize: 11,
                        textAlign: "center",
                        lineHeight: "24px",
                      }}
                    >
                      {!offer ? "" : offer.in_progress ? "идет" : completenessFigure(offer.completeness, 0)}
                    </div>
                  </Tooltip>
                </td>
              );
            }}
          />
        )}
      </Card>
      <Card title="Предложения в инвентаризацию">
        <Suspense fallback={<Skeleton active />}>
          <OffersTable offers={offers.data ?? []} loading={offers.isPending} onAccept={setAccepting} />
        </Suspense>
      </Card>
      {accepting && (
        <Suspense>
          <AcceptDialog facility={facilityId} year={year} offer={accepting} onClose={() => setAccepting(null)} />
        </Suspense>
      )}
    </Flex>
  );
}
