import { ThemeBuilder } from "../authoring/lazy.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { AdminPage } from "./AdminPage.tsx";
import "./texts.ts";

/** /admin/theme: the event's colours, sidebar style and logo, in the console with the rest of the event's settings. */
export function ThemePage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.theme")} intro={t("theme_page.intro")}>
      <ThemeBuilder />
    </AdminPage>
  );
}
