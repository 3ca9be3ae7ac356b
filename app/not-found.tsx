import { NotFoundPanel } from "@/components/ui/NotFoundPanel";

export default function NotFound() {
  return <NotFoundPanel title="Page not found" message="There is nothing at this address." />;
}
