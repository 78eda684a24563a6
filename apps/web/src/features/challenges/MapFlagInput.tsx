import "leaflet/dist/leaflet.css";
import "./challenges.css";
import { Stack } from "@mantine/core";
import { useMemo } from "react";
import { CircleMarker, MapContainer, Polyline, TileLayer, useMapEvents } from "react-leaflet";
import { MapSelection } from "./FlagInputs.tsx";
import type { FlagInputProps } from "./registry.tsx";

/** Lines every 30 degrees, so the map stays readable where no tile server is reachable. */
function graticule(): [number, number][][] {
  const lines: [number, number][][] = [];
  for (let lat = -60; lat <= 60; lat += 30) lines.push([[lat, -180], [lat, 180]]);
  for (let lon = -180; lon <= 180; lon += 30) lines.push([[-85, lon], [85, lon]]);
  return lines;
}

function ClickToPick({ onPick, disabled }: { onPick(point: [number, number]): void; disabled: boolean }) {
  useMapEvents({
    click(event) {
      if (!disabled) onPick([Number(event.latlng.lat.toFixed(6)), Number(event.latlng.wrap().lng.toFixed(6))]);
    },
  });
  return null;
}

/**
 * The map type: the player clicks a point and submits its latitude and longitude. Tiles come from
 * challenge_metadata.tile_url when the organisers set one; without it the map is a plain sea with
 * a graticule, which works offline.
 */
export default function MapFlagInput({ challenge, value, onChange, disabled }: FlagInputProps) {
  const meta = challenge.challenge_metadata;
  const minZoom = typeof meta.minimum_zoom_level === "number" ? meta.minimum_zoom_level : 1;
  const zoom = Math.max(2, minZoom);
  const tileUrl = typeof meta.tile_url === "string" && meta.tile_url !== "" ? meta.tile_url : null;
  const lines = useMemo(graticule, []);
  const point = Array.isArray(value) ? value : null;
  return (
    <Stack gap="xs">
      <MapSelection value={point} />
      <div className="flagship-map" data-testid="flag-map">
        <MapContainer center={[0, 0]} zoom={zoom} minZoom={minZoom} maxZoom={18} worldCopyJump style={{ height: 360, width: "100%" }} attributionControl={tileUrl !== null}>
          {tileUrl && <TileLayer url={tileUrl} />}
          {lines.map((line, i) => (
            <Polyline key={i} positions={line} pathOptions={{ color: "#7c93b5", weight: i === 2 ? 1.5 : 0.6, opacity: 0.7, interactive: false }} />
          ))}
          <ClickToPick onPick={(p) => onChange(p)} disabled={disabled} />
          {point && <CircleMarker center={point} radius={8} pathOptions={{ color: "#cf222e", fillColor: "#cf222e", fillOpacity: 0.8 }} />}
        </MapContainer>
      </div>
    </Stack>
  );
}

