import { Alert } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useRealtimeState } from "./RealtimeProvider.tsx";

/** 'Lost connection. Reconnecting in Ns...' while the websocket is down (after it first connected). */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const state = useRealtimeState();
  const [wasConnected, setWasConnected] = useState(false);
  useEffect(() => {
    if (state.connected) setWasConnected(true);
  }, [state.connected]);
  if (state.connected || !wasConnected) return null;
  return (
    <Alert color="orange" variant="filled" role="status" aria-live="polite" py={6} data-testid="connection-banner" style={{ position: "sticky", top: 64, zIndex: 50 }}>
      {t("realtime.lost", { seconds: state.timer })}
    </Alert>
  );
}
