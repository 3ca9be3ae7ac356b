import { ButtonLink } from "./Button";

/** The 404 state: used by app/not-found.tsx, the run page's not-found.tsx and client-side 404s. */
export function NotFoundPanel({ title, message }: { title: string; message: string }) {
  return (
    <div
      className="mx-auto mt-16 max-w-md rounded-lg border border-gray-200 bg-white p-8 text-center shadow-xs"
      data-testid="not-found"
    >
      <p className="text-xs font-semibold tracking-wide text-gray-500 uppercase">404</p>
      <h1 className="mt-1 text-lg font-semibold text-gray-900">{title}</h1>
      <p className="mt-2 text-gray-600">{message}</p>
      <div className="mt-5 flex justify-center gap-2">
        <ButtonLink href="/" variant="primary">
          Back to runs
        </ButtonLink>
        <ButtonLink href="/runs/new">New run</ButtonLink>
      </div>
    </div>
  );
}
