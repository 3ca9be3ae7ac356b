/** Shared table classes: dense rows, sticky header, numbers right-aligned with tabular digits. */
export const TABLE = "w-full border-collapse text-left text-sm";
export const THEAD = "sticky top-0 z-10 bg-gray-50 text-xs font-medium text-gray-600";
export const TH = "border-b border-gray-200 px-3 py-2 font-medium whitespace-nowrap";
export const TH_NUM = `${TH} text-right`;
/**
 * The runs table's headers: its 15 columns with half the side padding of the others, so its minimum width
 * (≈1,290 px) fits a 1,440 px window. Wider than its box, the table scrolls sideways inside it — the row
 * actions out of view, and the browser paints the scrolled box as a layer of its own (slower first paint).
 */
export const TH_TIGHT = "border-b border-gray-200 px-2 py-2 font-medium whitespace-nowrap";
export const TH_TIGHT_NUM = `${TH_TIGHT} text-right`;
export const TD = "border-b border-gray-100 px-3 py-1.5 align-top";
export const TD_NUM = `${TD} text-right tabular-nums whitespace-nowrap`;
export const ROW = "hover:bg-gray-50";
