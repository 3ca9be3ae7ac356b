"use client";
import { Button, ButtonLink } from "@/components/ui/Button";
import { Notice } from "@/components/ui/Notice";

export default function RunError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto mt-10 max-w-xl">
      <Notice
        tone="error"
        title="This run could not be displayed"
        actions={
          <>
            <Button onClick={reset}>Try again</Button>
            <ButtonLink href="/">All runs</ButtonLink>
          </>
        }
      >
        {error.message || "An unexpected error occurred."}
        {error.digest && <span className="ml-1 font-mono text-xs">({error.digest})</span>}
      </Notice>
    </div>
  );
}
