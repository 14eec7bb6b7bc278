// D94 on a sensor's record: its state verifications, newest first, each with its
// certificate's scan. A verification is never edited: «Исправить» on one not yet corrected opens the
// verification's form filled with it and records a newer one naming it (`corrects`; one correction each,
// the server refuses a second). The corrected one stays listed, greyed and marked «исправлена (запись от
// ДД.ММ.ГГГГ)» — the day its correction was recorded — and no longer counts; a reviewer corrects nothing.
import { lazy, Suspense, useState } from "react";
import { Button, Flex, Typography } from "antd";
import { displayDate, displayDateTime } from "../../../shared/dates";
import type { Verification } from "../../../api/instruments";
import { CertificateFile } from "./CertificateFile";

const VerificationDialog = lazy(() => import("./VerificationDialog"));

export function VerificationRecords({
  facility,
  sensor,
  code,
  verifications,
  canRecord,
}: {
  facility: string;
  sensor: string;
  code: string;
  verifications: readonly Verification[];
  canRecord: boolean;
}) {
  const [correcting, setCorrecting] = useState<Verification | null>(null);
  const recordedOn = (id: string | null) => displayDate(verifications.find((x) => x.id === id)?.recorded_at);
  return (
    <Flex vertical gap={12}>
      {verifications.map((v) => {
        const corrected = v.corrected_by !== null;
        return (
          <Flex key={v.id} vertical gap={2} data-testid={`verification-${v.id}`} style={corrected ? { opacity: 0.6 } : undefined}>
            <Typography.Text type={corrected ? "secondary" : undefined}>
              {v.instrument_type}, № в Госреестре СИ {v.register_number}, заводской № {v.serial}: поверен {displayDate(v.verified_on)},
              действительна до {displayDate(v.valid_to)}, свидетельство {v.certificate}
              <Typography.Text type="secondary">
                {" "}
                (записал {v.recorded_by}, {displayDateTime(v.recorded_at)})
              </Typography.Text>
            </Typography.Text>
            {corrected && (
              <Typography.Text type="secondary">исправлена (запись от {recordedOn(v.corrected_by)}), не учитывается</Typography.Text>
            )}
            {v.corrects && <Typography.Text type="secondary">исправляет запись от {recordedOn(v.corrects)}</Typography.Text>}
            <CertificateFile facility={facility} sensor={sensor} verification={v} canAttach={canRecord} />
            {canRecord && !corrected && (
              <Flex>
                <Button size="small" onClick={() => setCorrecting(v)}>
                  Исправить
                </Button>
              </Flex>
            )}
          </Flex>
        );
      })}
      <Suspense>
        {correcting && (
          <VerificationDialog facility={facility} sensor={sensor} code={code} corrects={correcting} onClose={() => setCorrecting(null)} />
        )}
      </Suspense>
    </Flex>
  );
}
