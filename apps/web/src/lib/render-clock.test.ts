import { afterEach, describe, expect, it } from "vitest";
import { zoneSignature } from "./render-clock.ts";

const zone = process.env.TZ;
/** Node reads process.env.TZ again when it is set: each signature below is taken in that zone. */
function signatureIn(tz: string, around: number): string {
  process.env.TZ = tz;
  return zoneSignature(around);
}

afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe("zoneSignature", () => {
  const around = Date.UTC(2026, 10, 28, 12);

  it("is the same for zones that read every time of the two years alike, whatever their names", () => {
    expect(signatureIn("Europe/Lisbon", around)).toBe(signatureIn("Europe/London", around));
    expect(signatureIn("Asia/Calcutta", around)).toBe(signatureIn("Asia/Kolkata", around));
    expect(signatureIn("Etc/UTC", around)).toBe("0@-365");
  });

  it("tells apart zones of one offset today when one of them changes it on other days", () => {
    // London is on UTC in November, as Reykjavik is all year; London's summer time starts in March.
    expect(signatureIn("Europe/London", around)).toMatch(/^0@-365 -60@-\d+ 0@-\d+ -60@\d+ 0@\d+$/);
    expect(signatureIn("Atlantic/Reykjavik", around)).toBe("0@-365");
    expect(signatureIn("Asia/Kolkata", around)).toBe("-330@-365");
  });
});
