// «Отключения и ручные замеры» of a mine (D104–D105): the head at once, the lists and the form
// (ReadingsAuditContent) as a chunk of their own, so antd's select, cards and tags stay out of the
// route's initial JS (tests/web/bundle.test.ts).
import { lazy, Suspense } from "react";
import { Flex } from "antd";
import { useParams } from "react-router-dom";
import { LazyLoading } from "../../../shared/LazyLoading";
import { MonitoringHead } from "../MonitoringHead";

const ReadingsAuditContent = lazy(() => import("./ReadingsAuditContent"));

export default function ReadingsAuditPage() {
  const { facilityId = "" } = useParams();
  return (
    <Flex vertical gap={16}>
      <MonitoringHead
        page="Отключения и ручные замеры"
        facilityId={facilityId}
        current="readings-audit"
        advisory="Платформа проверяет показания и отключения, но не управляет ими: отключение выполняет АГК шахты."
      />
      <Suspense fallback={<LazyLoading />}>
        <ReadingsAuditContent facility={facilityId} />
      </Suspense>
    </Flex>
  );
}
