import { Group, NumberInput, Stack, Text } from "@mantine/core";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { deferred } from "../lib/deferred.tsx";
import { type FlagTypeFieldsProps, flagTypes, loginProviders, type PopupProps, popups } from "./extensions.tsx";

/** The built-in entries of the plugin points, registered in this one place. */

function MapFlagFields({ metadata, onChange }: FlagTypeFieldsProps) {
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

for (const name of ["plaintext", "lenient", "long_text", "hashed", "regex"]) flagTypes.register(name, {});
flagTypes.register("map", { Fields: MapFlagFields });

function BasePopup({ title, body }: PopupProps) {
  return (
    <Stack gap={2}>
      {title && <Text fw={600}>{title}</Text>}
      {body && <Text size="sm">{body}</Text>}
    </Stack>
  );
}

const MEDALS: Record<string, string> = { gold: "🥇", silver: "🥈", bronze: "🥉", first_blood: "🩸" };

/** A medal popup; an unknown medal says so ('Unknown medal type'). */
function MedalPopup({ title, data }: PopupProps) {
  const medal = typeof data?.medal === "string" ? data.medal : "";
  const icon = MEDALS[medal];
  return (
    <Stack gap={2}>
      <Text fw={600}>
        {icon ? <span aria-hidden>{icon} </span> : null}
        {title ?? i18next.t("plugins.medal")}
      </Text>
      <Text size="sm">{icon ? i18next.t(`plugins.medal_${medal}`) : i18next.t("plugins.unknown_medal")}</Text>
    </Stack>
  );
}

popups.register("base", BasePopup);
popups.register("medal", MedalPopup);

loginProviders.register("basic_auth", deferred(() => import("../features/auth/LoginPage.tsx").then((m) => m.LoginPage)));
