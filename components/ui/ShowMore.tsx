/** "Showing 100 of 1,000 · Show 200 more · Show all" under a capped list. */
export function ShowMore({
  shown,
  total,
  step,
  onChange,
  noun = "rows",
}: {
  shown: number;
  total: number;
  step: number;
  onChange: (n: number) => void;
  noun?: string;
}) {
  if (total <= shown) return null;
  const more = Math.min(step, total - shown);
  return (
    <div className="flex items-center gap-3 border-t border-gray-100 px-3 py-2 text-xs text-gray-600">
      <span>
        Showing {shown.toLocaleString("en-US")} of {total.toLocaleString("en-US")} {noun}
      </span>
      <button
        type="button"
        className="font-medium text-indigo-700 hover:underline"
        onClick={() => onChange(shown + more)}
      >
        Show {more.toLocaleString("en-US")} more
      </button>
      {total - shown > more && (
        <button type="button" className="font-medium text-indigo-700 hover:underline" onClick={() => onChange(total)}>
          Show all
        </button>
      )}
    </div>
  );
}
