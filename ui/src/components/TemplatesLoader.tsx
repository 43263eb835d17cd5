import { signal } from "@preact/signals";
import type { ComponentType } from "preact";
import { useEffect } from "preact/hooks";
import { errorMessage } from "../api";
import { Modal } from "./Modal";

// The templates dialog and its form load when first opened (a dynamic import), so a board's
// first load does not carry them.

type TemplatesProps = { fromTicketIds?: number[] | undefined; onClose: () => void };
const view = signal<ComponentType<TemplatesProps> | null>(null);
const failure = signal<string | null>(null);

export function TemplatesLoader(props: TemplatesProps) {
  useEffect(() => {
    if (view.peek()) return;
    import("./Templates")
      .then((module) => (view.value = module.Templates))
      .catch((error) => (failure.value = errorMessage(error)));
  }, []);
  const View = view.value;
  if (View) return <View {...props} />;
  return (
    <Modal label="Templates" class="modal-small" onClose={props.onClose}>
      <p class="muted">
        {failure.value ? `Templates cannot load: ${failure.value}` : "Loading templates…"}
      </p>
    </Modal>
  );
}
