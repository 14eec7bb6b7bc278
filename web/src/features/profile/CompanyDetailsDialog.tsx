// «Изменить реквизиты» on /profile (docs/user-guide.md): the company's staff keep its name, e-mail,
// region, ИНН, КПП, ОГРН, ОКВЭД, postal address and the person responsible. Each field is checked before sending by the
// server's own rules (functions/src/contract/schemas/company.ts); what the server still refuses
// («field: text», several joined by «; ») is shown at each field.
import { zoneOf } from "@core/company-clock";
import { Form } from "antd";
import { CompanyRequisiteFields, REQUISITE_FIELDS, requisiteForm } from "../../shared/CompanyRequisiteFields";
import { FormDialog, showRefusal, trimmedFields } from "../../shared/FormDialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isApiError } from "../../api/client";
import { useFeedback } from "../../shared/feedback";
import { meKey, patchOwnCompany, requisitesAuditKey, type Me, type OwnCompanyBody } from "../../api/profile";

export function CompanyDetailsDialog({ company, open, onClose }: { company: Me["company"]; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<OwnCompanyBody>();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const save = useMutation({
    mutationFn: (values: OwnCompanyBody) => patchOwnCompany(trimmedFields(values, REQUISITE_FIELDS), company.version ?? 0),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: meKey }),
        queryClient.invalidateQueries({ queryKey: requisitesAuditKey }),
      ]);
      message.success("Реквизиты сохранены");
      onClose();
    },
    onError: (error) =>
      showRefusal(form, error, REQUISITE_FIELDS, () => message.error(isApiError(error) ? error.detail : "Не удалось сохранить реквизиты")),
  });

  return (
    <FormDialog form={form} open={open} title="Реквизиты компании" saving={save.isPending} onClose={onClose}>
      <Form<OwnCompanyBody>
        form={form}
        layout="vertical"
        initialValues={{ ...company, time_zone: zoneOf(company) }}
        onFinish={(values) => save.mutate(values)}
        preserve={false}
        {...requisiteForm(form)}
      >
        <CompanyRequisiteFields kept={company} />
      </Form>
    </FormDialog>
  );
}
