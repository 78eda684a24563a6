import { Alert, Button, Card, Center, Text, Title, useComputedColorScheme } from "@mantine/core";
import type { EChartsCoreOption } from "echarts/core";
import { useMemo } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { Chart } from "../../lib/Chart.tsx";

/** A titled chart card; an empty state instead of a blank chart when there is nothing to draw. */
export function ChartCard({
  title,
  empty,
  build,
  height = 260,
  testId,
}: {
  title: string;
  empty: boolean;
  build: (scheme: "light" | "dark") => EChartsCoreOption;
  height?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme("light");
  // Rebuilt only when the data or scheme change, so the chart is not re-created on every render.
  const option = useMemo(() => build(scheme), [build, scheme]);
  return (
    <Card withBorder padding="md" radius="md" data-testid={testId}>
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      {empty ? (
        <Center h={height}>
          <Text c="dimmed" size="sm">
            {t("profiles.no_data")}
          </Text>
        </Center>
      ) : (
        <Chart option={option} height={height} label={title} />
      )}
    </Card>
  );
}

/** The charts' data failed to load: say so, with a retry, instead of a skeleton forever. */
export function ChartsFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t("lists.paginated_error")}>
      <Button size="xs" variant="white" color="red" onClick={onRetry}>
        {t("generic.retry")}
      </Button>
    </Alert>
  );
}
