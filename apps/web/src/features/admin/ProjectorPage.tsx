import { Button, Card, Group, Text } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { AdminPage } from "./AdminPage.tsx";
import "./texts.ts";

/** /admin/projector: what the projector board is for, and the way to it (it fills a screen of its own, without the app around it). */
export function ProjectorPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.projector")} intro={t("projector_page.intro")}>
      <Card withBorder radius="md">
        <Text size="sm" mb="md">
          {t("projector_page.body")}
        </Text>
        <Group>
          <Button component={Link} to="/largeLeaderboard">
            {t("projector_page.open")}
          </Button>
        </Group>
      </Card>
    </AdminPage>
  );
}
