import { Group, NumberInput } from "@mantine/core";
import { useTranslation } from "../lib/i18n.ts";
import type { FlagTypeFieldsProps } from "./extensions.tsx";
import "../features/authoring/texts.ts";

/** The map flag's fields in the challenge editor: the target's latitude and longitude and the radius. */
export function MapFlagFields({ metadata, onChange }: FlagTypeFieldsProps) {
  const { t } = useTranslation();
  const location = Array.isArray(metadata.location) ? (metadata.location as unknown[]) : [];
  const lat = typeof location[0] === "number" ? location[0] : 0;
  const lon = typeof location[1] === "number" ? location[1] : 0;
  return (
    <Group grow wrap="wrap" align="flex-start">
      <NumberInput label={t("editor.latitude")} min={-90} max={90} decimalScale={6} value={typeof location[0] === "number" ? location[0] : ""} onChange={(v) => onChange({ location: [Number(v) || 0, lon] })} miw={120} />
      <NumberInput label={t("editor.longitude")} min={-180} max={180} decimalScale={6} value={typeof location[1] === "number" ? location[1] : ""} onChange={(v) => onChange({ location: [lat, Number(v) || 0] })} miw={120} />
      <NumberInput label={t("editor.radius")} min={0} decimalScale={3} value={typeof metadata.radius === "number" ? metadata.radius : ""} onChange={(v) => onChange({ radius: Number(v) || 0 })} miw={120} />
    </Group>
  );
}
