import { Loader } from "@mantine/core";
import { lazy, Suspense } from "react";
import { defaultType, freeformType, longTextType } from "./FlagInputs.tsx";
import { deferred } from "../../lib/deferred.tsx";
import { type FlagInputProps, registerCategoryType, registerChallengeType, registerEditorType } from "./registry.tsx";

// Layouts and the staff's type editors load with the page that draws them.
const JeopardyLayout = deferred(() => import("./JeopardyLayout.tsx").then((m) => m.JeopardyLayout));
const CampaignGrid = deferred(() => import("./CampaignGrid.tsx").then((m) => m.CampaignGrid));
const NoExtraFields = deferred(() => import("../authoring/TypeEditors.tsx").then((m) => m.NoExtraFields));
const CodeEditorFields = deferred(() => import("../authoring/TypeEditors.tsx").then((m) => m.CodeEditorFields));
const MapEditorFields = deferred(() => import("../authoring/TypeEditors.tsx").then((m) => m.MapEditorFields));

// The code editor and the map are large: loaded only when a challenge needs them.
const CodeFlagInput = lazy(() => import("./CodeFlagInput.tsx"));
const MapFlagInput = lazy(() => import("./MapFlagInput.tsx"));

function LazyCode(props: FlagInputProps) {
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <CodeFlagInput {...props} />
    </Suspense>
  );
}

function LazyMap(props: FlagInputProps) {
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <MapFlagInput {...props} />
    </Suspense>
  );
}

registerCategoryType("jeopardy", JeopardyLayout);
registerCategoryType("campaign", CampaignGrid);
registerChallengeType("default", defaultType);
registerChallengeType("freeform", freeformType);
registerChallengeType("longText", longTextType);
registerChallengeType("code", { FlagInput: LazyCode, canSubmit: (_c, value) => typeof value === "string" && value.trim() !== "" });
registerChallengeType("map", { FlagInput: LazyMap, canSubmit: (_c, value) => Array.isArray(value) });
registerEditorType("default", NoExtraFields);
registerEditorType("freeform", NoExtraFields);
registerEditorType("longText", NoExtraFields);
registerEditorType("code", CodeEditorFields);
registerEditorType("map", MapEditorFields);
