// «Книга учета загазирований» of a mine: the gassings of a period of company days with
// their entries — the type, the cause, the measures, the losses, who cleared the gas and who
// investigated, who registered and closed each, and the confirmations of the section's head, the head
// of the АБ section and the chief engineer (given here by the user an administrator gave that duty);
// the book as xlsx or PDF in its columns with the signature lines. At most 92 days at once.
// Advisory: protective cut-off stays with the mine's own АГК.
import { lazy, Suspense } from "react";
import { Flex, Typography } from "antd";
import { useParams } from "react-router-dom";
import { DUTIES, DUTY_LABELS } from "@core/gassing-book";
import { LoadError } from "../../../shared/LoadError";
import { DayPeriodHeader, monthStart, useDayPeriod } from "../../../shared/DayPeriod";
import { useMe } from "../../../api/profile";
import { useGassings } from "../../../api/journal";
import { downloadGassingBook } from "../../../api/gassing-book";
import { MonitoringHead } from "../MonitoringHead";
import { LazyLoading } from "../../../shared/LazyLoading";

// The records' card loads with its table (lazy itself), as on «События»: antd's Card and Tag stay out of
// the page's initial JS (an earlier round's budget).
const GassingsCard = lazy(() => import("./GassingsCard").then((m) => ({ default: m.GassingsCard })));

export default function GassingBookPage() {
  const { facilityId = "" } = useParams();
  const me = useMe();
  const period = useDayPeriod(monthStart);
  const { from, to, fromText, toText } = period;
  const book = useGassings(facilityId, from, to);
  const duty = me.data?.duty;

  return (
    <Flex vertical gap={16}>
      <MonitoringHead page="Книга учета загазирований" facilityId={facilityId} current="gassing-book" limits />
      <DayPeriodHeader
        period={period}
        files={[
          { label: "Книга (xlsx)", save: (f, t) => downloadGassingBook(facilityId, f, t, "xlsx") },
          { label: "Книга (PDF)", save: (f, t) => downloadGassingBook(facilityId, f, t, "pdf") },
        ]}
      />
      {book.isError && <LoadError what="книгу загазирований" message={book.error.message} retry={() => book.refetch()} />}
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Запись закрывает диспетчер, указав причину, вид и принятые меры; закрытая запись не меняется. Подтверждают начальник участка,
        начальник участка АБ и главный инженер — пользователи, которым администратор назначил эту обязанность.
        {duty && DUTIES.includes(duty as never) ? ` Вы подтверждаете как ${DUTY_LABELS[duty as (typeof DUTIES)[number]]}.` : ""} Записи
        хранятся без срока удаления.
      </Typography.Paragraph>
      <Suspense fallback={<LazyLoading />}>
        <GassingsCard
          facility={facilityId}
          title={from && to ? `Записи с ${fromText} по ${toText}` : "Записи"}
          gassings={from && to ? (book.data?.results ?? []) : []}
          loading={book.isPending && Boolean(from && to)}
          processing={book.data?.processing?.text}
        />
      </Suspense>
    </Flex>
  );
}
