// One's own account on /profile (docs/user-guide.md): «Изменить» sets one's first name, last name
// and position (the header, comments, the review trail and the passport name the person by them);
// «Сменить пароль» asks for the current password and the new one twice, and keeps this browser
// signed in on the new session the server hands back while every other session ends.
import { Alert, Form, Input } from "antd";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PASSWORD_MIN_LENGTH } from "@server/contract";
import { isApiError } from "../../api/client";
import { changeOwnPassword, meKey, patchMe, type Me, type OwnProfileBody } from "../../api/profile";
import { signIn } from "../../app/session";
import { inventoryKey } from "../../api/inventory";
import { FormDialog, showRefusal, trimmedFields } from "../../shared/FormDialog";
import { useFeedback } from "../../shared/feedback";
import { TextItem } from "../../shared/TextItem";
import { LIMITS } from "@server/contract";

const PERSON_MAX = LIMITS.name.person;
const PROFILE_FIELDS = ["first_name", "last_name", "position"] as const;

export function OwnProfileDialog({ me, open, onClose }: { me: Me; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<OwnProfileBody>();
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const save = useMutation({
    mutationFn: (values: OwnProfileBody) => patchMe(trimmedFields(values, PROFILE_FIELDS)),
    onSuccess: (saved) => {
      queryClient.setQueryData(meKey, saved);
      // The trail and the comments name the person anew.
      void queryClient.invalidateQueries({ queryKey: inventoryKey });
      message.success("Данные пользователя сохранены");
      onClose();
    },
    onError: (error) =>
      showRefusal(form, error, PROFILE_FIELDS, () =>
        message.error(isApiError(error) ? error.detail : "Не удалось сохранить данные пользователя"),
      ),
  });
  return (
    <FormDialog form={form} open={open} title="Данные пользователя" saving={save.isPending} onClose={onClose}>
      <Form<OwnProfileBody>
        form={form}
        layout="vertical"
        initialValues={{ first_name: me.first_name, last_name: me.last_name, position: me.position ?? "" }}
        onFinish={(values) => save.mutate(values)}
        preserve={false}
      >
        <TextItem label="Имя" name="first_name" maxLength={PERSON_MAX} autoComplete="given-name" />
        <TextItem label="Фамилия" name="last_name" maxLength={PERSON_MAX} autoComplete="family-name" />
        <TextItem label="Должность" name="position" maxLength={PERSON_MAX} autoComplete="organization-title" />
      </Form>
    </FormDialog>
  );
}

type PasswordForm = { current_password: string; new_password: string; repeat: string };
const PASSWORD_FIELDS = ["current_password", "new_password"] as const;

export function OwnPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<PasswordForm>();
  const { message } = useFeedback();
  const change = useMutation({
    mutationFn: ({ current_password, new_password }: PasswordForm) => changeOwnPassword({ current_password, new_password }),
    onSuccess: (tokens) => {
      // This browser goes on in the new session; every other one is signed out.
      signIn(tokens);
      message.success("Пароль изменен. Другие сеансы завершены");
      onClose();
    },
    onError: (error) =>
      showRefusal(form, error, PASSWORD_FIELDS, () => message.error(isApiError(error) ? error.detail : "Не удалось изменить пароль")),
  });
  return (
    <FormDialog form={form} open={open} title="Смена пароля" okText="Сменить пароль" saving={change.isPending} onClose={onClose}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title="После смены пароля все другие сеансы (другие браузеры и устройства) завершатся"
      />
      <Form<PasswordForm> form={form} layout="vertical" onFinish={(values) => change.mutate(values)} preserve={false}>
        <Form.Item label="Текущий пароль" name="current_password" rules={[{ required: true, message: "Введите текущий пароль" }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="Новый пароль"
          name="new_password"
          rules={[
            { required: true, message: "Введите новый пароль" },
            { min: PASSWORD_MIN_LENGTH, message: `Пароль не короче ${PASSWORD_MIN_LENGTH} символов` },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="Новый пароль еще раз"
          name="repeat"
          dependencies={["new_password"]}
          rules={[
            { required: true, message: "Повторите новый пароль" },
            ({ getFieldValue }) => ({
              validator: (_, value?: string) =>
                !value || value === getFieldValue("new_password") ? Promise.resolve() : Promise.reject(new Error("Пароли не совпадают")),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
