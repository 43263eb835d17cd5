import { signal } from "@preact/signals";
import type { ComponentType } from "preact";
import { useEffect } from "preact/hooks";
import { errorMessage } from "../api";

// The Insights view and its charting library (uPlot) load only when the view is first opened:
// a dynamic import, so the board's first load does not carry them.

const view = signal<ComponentType | null>(null);
const failure = signal<string | null>(null);

export function InsightsLoader() {
  useEffect(() => {
    if (view.peek()) return;
    import("./InsightsView")
      .then((module) => (view.value = module.InsightsView))
      .catch((error) => (failure.value = errorMessage(error)));
  }, []);
  const View = view.value;
  if (View) return <View />;
  return (
    <div class="loading">
      {failure.value ? `The Insights view cannot load: ${failure.value}` : "Loading insights…"}
    </div>
  );
}
