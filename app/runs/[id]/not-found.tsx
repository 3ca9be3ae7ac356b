import { NotFoundPanel } from "@/components/ui/NotFoundPanel";

export default function RunNotFound() {
  return (
    <NotFoundPanel
      title="Run not found"
      message="No run has this id. It may have been deleted, or the address is mistyped."
    />
  );
}
