// The head every monitoring page of a mine opens with: its title (the page's name and the facility's),
// the links to the other pages, the note that what is shown is advisory and, over the demo mine's
// simulated readings, their warning. Seven pages wrote these four out by hand.
import { ADVISORY_NOTE } from "@core/monitoring";
import { Alert, Typography } from "antd";
import type { ReactNode } from "react";
import { useFacilities } from "../../api/inventory";
import { FacilityMonitoringLinks, type MonitoringPage } from "../../shared/FacilityMonitoringLinks";
import { DemoReadingsAlert } from "./DemoReadingsAlert";
import { LimitEditionAlert } from "./LimitEditionAlert";

export function MonitoringHead({
  page,
  title,
  facilityId,
  current,
  before,
  advisory = ADVISORY_NOTE,
  demo,
  limits = false,
}: {
  /** The page's name, followed by the facility's («Датчики: Шахта № 1»)… */
  page?: string;
  /** …or its title whole (a sensor's pages name the sensor). */
  title?: ReactNode;
  facilityId: string;
  /** The page itself, left out of the links (none on a page of one sensor). */
  current?: MonitoringPage;
  /** A link put before the monitoring pages' own. */
  before?: ReactNode;
  /** The advisory note as the server words it, where it does. */
  advisory?: string;
  /** The readings shown are the demo mine's simulated ones. */
  demo?: boolean;
  /** The page draws a permissible limit: it says so where no confirmed edition of the rules holds. */
  limits?: boolean;
}) {
  return (
    <>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {title ?? <FacilityTitle page={page ?? ""} facilityId={facilityId} />}
      </Typography.Title>
      <FacilityMonitoringLinks facilityId={facilityId} current={current} before={before} />
      <Alert type="info" showIcon title={advisory} />
      <DemoReadingsAlert shown={demo} />
      {limits && <LimitEditionAlert />}
    </>
  );
}

/** «Датчики: Шахта № 1»: the page's name and, once the list has it, the facility's. */
function FacilityTitle({ page, facilityId }: { page: string; facilityId: string }) {
  const facility = useFacilities().data?.find((f) => f.id === facilityId);
  return `${page}${facility ? `: ${facility.name}` : ""}`;
}
