import { Stack, Text } from "@mantine/core";
import { i18n } from "../lib/i18n.ts";
import { deferred } from "../lib/deferred.tsx";
import { flagTypes, loginProviders, type PopupProps, popups } from "./extensions.tsx";
import "../features/sharing/texts.ts";

/** The built-in entries of the plugin points, registered in this one place. */

for (const name of ["plaintext", "lenient", "long_text", "hashed", "regex"]) flagTypes.register(name, {});
flagTypes.register("map", { Fields: deferred("plugins/MapFlagFields", () => import("./MapFlagFields.tsx").then((m) => m.MapFlagFields)) });

flagTypes.register("dynamic", { Fields: deferred("plugins/DynamicFlagFields", () => import("./DynamicFlagFields.tsx").then((m) => m.DynamicFlagFields)) });

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
        {title ?? i18n.t("plugins.medal")}
      </Text>
      <Text size="sm">{icon ? i18n.t(`plugins.medal_${medal}`) : i18n.t("plugins.unknown_medal")}</Text>
    </Stack>
  );
}

popups.register("base", BasePopup);
popups.register("medal", MedalPopup);

loginProviders.register("basic_auth", deferred("features/auth/LoginPage", () => import("../features/auth/LoginPage.tsx").then((m) => m.LoginPage)));
loginProviders.register("oidc", deferred("features/auth/LoginPage", () => import("../features/auth/LoginPage.tsx").then((m) => m.OidcLoginPage)));
