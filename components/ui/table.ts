/** Shared table classes: dense rows, sticky header, numbers right-aligned with tabular digits. */
export const TABLE = "w-full border-collapse text-left text-sm";
export const THEAD = "sticky top-0 z-10 bg-gray-50 text-xs font-medium text-gray-600";
export const TH = "border-b border-gray-200 px-3 py-2 font-medium whitespace-nowrap";
export const TH_NUM = `${TH} text-right`;
export const TD = "border-b border-gray-100 px-3 py-1.5 align-top";
export const TD_NUM = `${TD} text-right tabular-nums whitespace-nowrap`;
export const ROW = "hover:bg-gray-50";
