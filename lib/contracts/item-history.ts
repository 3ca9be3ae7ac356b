/**
 * Per-item history across a run (pure): for every selection or train item, its result at every evaluation
 * and the step that fixed or broke it. The server builds it from stored per-item rows; the page filters it.
 *
 * Result codes, one character per evaluation: "1" correct, "0" wrong, "e" not answered (error, timeout,
 * truncated — never scored), "." not evaluated there.
 */

export type ItemSplit = "selection" | "train";
export type ResultCode = "1" | "0" | "e" | ".";

/** Where an evaluation's per-item results come from. */
export type EvalSource =
  /** Rows stored for this evaluation. */
  | "measured"
  /** A cached score: the rows of an earlier evaluation of the same skill (same content hash). */
  | "reused"
  /** A cached score with no rows for its skill anywhere: the current skill's last known results. */
  | "last_known";

export interface ItemEvaluation {
  step: number;
  /**
   * baseline (the seed on the selection split), selection (a step's candidate), slow_update (the epoch's
   * slow-update candidate, scored by its gate after the epoch's last step), rollout (a train batch).
   */
  label: "baseline" | "selection" | "slow_update" | "rollout";
  /** The step's gate decision (null for the baseline). */
  action: string | null;
  source: EvalSource;
  /** True when the evaluated skill became the current skill (baseline, accepted candidates, every rollout). */
  adopted: boolean;
}

export interface ItemChange {
  step: number;
  to: "fixed" | "broken";
}

export interface ItemHistoryRow {
  id: string;
  reference: string | null;
  /** The prediction at the item's latest evaluation. */
  lastPrediction: string | null;
  /** What each evaluation measured (the candidate's result on the selection split). */
  cells: string;
  /** The current skill's result after each evaluation (carried forward where nothing was measured). */
  current: string;
  /** Where the current skill's result turned correct (fixed) or wrong (broken). */
  changes: ItemChange[];
}

export interface ItemHistoryResponse {
  split: ItemSplit;
  evaluations: ItemEvaluation[];
  items: ItemHistoryRow[];
}

export interface HistoryEvalRow {
  step: number;
  label: string;
  itemId: string;
  hard: number;
  status: string;
  skillHash: string;
  prediction: string | null;
  reference: string | null;
}

export interface HistoryStep {
  step: number;
  action: string;
  candidateHash: string | null;
}

/** A gated slow update: the step after which it ran and its gate's action. */
export interface HistorySlowUpdate {
  step: number;
  action: string;
}

/** Gate decisions whose candidate became the current skill. */
export const ADOPTING_ACTIONS: ReadonlySet<string> = new Set(["accept", "accept_new_best", "force_accept"]);

export function codeOf(r: { hard: number; status: string }): ResultCode {
  if (r.status !== "ok") return "e";
  return r.hard >= 1 ? "1" : "0";
}

/** One evaluation's stored results: each item's code and, when read row by row, its texts. */
export interface HistoryColumn {
  step: number;
  label: string;
  skillHash: string;
  codes: ReadonlyMap<string, ResultCode>;
  texts?: ReadonlyMap<string, Pick<HistoryEvalRow, "prediction" | "reference">>;
}

interface Column {
  ev: ItemEvaluation;
  data: HistoryColumn;
}

const NO_ROWS: HistoryColumn = { step: 0, label: "", skillHash: "", codes: new Map() };
const keyOf = (c: { label: string; step: number }) => `${c.label}:${c.step}`;

/** Rows grouped into one column per evaluation (label and step); an item's first row counts. */
function columnsOf(rows: readonly HistoryEvalRow[]): HistoryColumn[] {
  const out = new Map<string, HistoryColumn & { codes: Map<string, ResultCode>; texts: Map<string, HistoryEvalRow> }>();
  for (const r of rows) {
    const key = keyOf(r);
    let c = out.get(key);
    if (!c)
      out.set(key, (c = { step: r.step, label: r.label, skillHash: r.skillHash, codes: new Map(), texts: new Map() }));
    if (c.codes.has(r.itemId)) continue;
    c.codes.set(r.itemId, codeOf(r));
    c.texts.set(r.itemId, r);
  }
  return [...out.values()];
}

/** The selection split's evaluations: the baseline, then each step that scored a candidate. */
function selectionColumns(
  columns: readonly HistoryColumn[],
  steps: readonly HistoryStep[],
  slowUpdates: readonly HistorySlowUpdate[],
): Column[] {
  const byEval = new Map(columns.map((c) => [keyOf(c), c]));
  const byHash = new Map<string, HistoryColumn>();
  // Code-unit order of the keys (as localeCompare orders these lowercase ASCII keys, at a fraction of its cost).
  for (const [, c] of [...byEval].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (c.codes.size > 0 && c.skillHash && !byHash.has(c.skillHash)) byHash.set(c.skillHash, c);
  }
  const cols: Column[] = [];
  const base = byEval.get("baseline:0");
  if (base)
    cols.push({ ev: { step: 0, label: "baseline", action: null, source: "measured", adopted: true }, data: base });
  for (const s of [...steps].sort((a, b) => a.step - b.step)) {
    const own = byEval.get(`selection:${s.step}`);
    if (!own && !s.candidateHash) continue; // no candidate at this step: nothing was evaluated
    const reused = own || !s.candidateHash ? undefined : byHash.get(s.candidateHash);
    const source: EvalSource = own ? "measured" : reused ? "reused" : "last_known";
    cols.push({
      ev: { step: s.step, label: "selection", action: s.action, source, adopted: ADOPTING_ACTIONS.has(s.action) },
      data: own ?? reused ?? NO_ROWS,
    });
  }
  // Slow-update gates with rows of their own, each after the column of the step it followed.
  for (const u of slowUpdates) {
    const own = byEval.get(`slow_update:${u.step}`);
    if (!own) continue;
    const col: Column = {
      ev: {
        step: u.step,
        label: "slow_update",
        action: u.action,
        source: "measured",
        adopted: ADOPTING_ACTIONS.has(u.action),
      },
      data: own,
    };
    const after = cols.findLastIndex((c) => c.ev.step <= u.step);
    cols.splice(after + 1, 0, col);
  }
  return cols;
}

function trainColumns(columns: readonly HistoryColumn[], steps: readonly HistoryStep[]): Column[] {
  const actions = new Map(steps.map((s) => [s.step, s.action]));
  return columns
    .filter((c) => c.label === "rollout")
    .sort((a, b) => a.step - b.step)
    .map((c) => ({
      ev: { step: c.step, label: "rollout", action: actions.get(c.step) ?? null, source: "measured", adopted: true },
      data: c,
    }));
}

const byNatural = new Intl.Collator("en", { numeric: true }).compare;

/** Builds the history of every item seen on the split, items in natural id order. */
export function buildItemHistory(
  split: ItemSplit,
  rows: readonly HistoryEvalRow[],
  steps: readonly HistoryStep[],
  slowUpdates: readonly HistorySlowUpdate[] = [],
): ItemHistoryResponse {
  return buildItemHistoryFromColumns(split, columnsOf(rows), steps, slowUpdates);
}

/**
 * The same from results already grouped per evaluation (the server aggregates a run's rows in SQL: a
 * 1,000-step run's 40,000 rows never become objects one by one).
 */
export function buildItemHistoryFromColumns(
  split: ItemSplit,
  columns: readonly HistoryColumn[],
  steps: readonly HistoryStep[],
  slowUpdates: readonly HistorySlowUpdate[] = [],
): ItemHistoryResponse {
  const cols = split === "selection" ? selectionColumns(columns, steps, slowUpdates) : trainColumns(columns, steps);
  const evaluations = cols.map((c) => c.ev);
  const ids = new Set<string>();
  for (const c of cols) for (const id of c.data.codes.keys()) ids.add(id);
  const order = [...ids].sort(byNatural);
  const index = new Map(order.map((id, i) => [id, i]));
  // One pass over the columns fills every item's row (not a lookup per item and evaluation: 40 items ×
  // 1,000 evaluations were 40,000 map reads and string appends per answer).
  const cells = order.map(() => new Array<string>(cols.length).fill("."));
  const reference = order.map((): string | null => null);
  const lastPrediction = order.map((): string | null => null);
  cols.forEach((c, j) => {
    for (const [id, code] of c.data.codes) cells[index.get(id)!]![j] = code;
    for (const [id, t] of c.data.texts ?? []) {
      const i = index.get(id)!;
      reference[i] = t.reference ?? reference[i]!;
      lastPrediction[i] = t.prediction;
    }
  });
  const items = order.map((id, i): ItemHistoryRow => {
    const codes = cells[i]!.join("");
    return {
      id,
      reference: reference[i]!,
      lastPrediction: lastPrediction[i]!,
      cells: codes,
      ...currentOf(codes, evaluations),
    };
  });
  return { split, evaluations, items };
}

/**
 * The current skill's result after each evaluation and where it turned (pure): what an adopted evaluation
 * measured becomes current; "." (not measured there) carries the previous result forward.
 */
export function currentOf(
  cells: string,
  evaluations: readonly Pick<ItemEvaluation, "step" | "adopted">[],
): Pick<ItemHistoryRow, "current" | "changes"> {
  let current = "";
  let cur = ".";
  let lastDefinite: string | null = null;
  const changes: ItemChange[] = [];
  for (let i = 0; i < cells.length; i++) {
    const code = cells[i]!;
    const ev = evaluations[i];
    if (ev?.adopted && code !== ".") cur = code;
    current += cur;
    if (cur === "0" || cur === "1") {
      if (lastDefinite !== null && cur !== lastDefinite)
        changes.push({ step: ev!.step, to: cur === "1" ? "fixed" : "broken" });
      lastDefinite = cur;
    }
  }
  return { current, changes };
}

/**
 * What GET /api/runs/{id}/items sends: each item's measured codes only. Its current results and changes
 * follow from those codes and the evaluations (`expandItemHistory`), and on a 1,000-step run they were
 * two thirds of the answer (the changes alone 140 KB of 315 KB).
 */
export interface ItemHistoryWire {
  split: ItemSplit;
  evaluations: ItemEvaluation[];
  items: Array<Omit<ItemHistoryRow, "current" | "changes">>;
}

export function toItemHistoryWire(h: ItemHistoryResponse): ItemHistoryWire {
  return {
    split: h.split,
    evaluations: h.evaluations,
    items: h.items.map(({ id, reference, lastPrediction, cells }) => ({ id, reference, lastPrediction, cells })),
  };
}

/** The full history from its wire form (the browser does this once per answer). */
export function expandItemHistory(w: ItemHistoryWire): ItemHistoryResponse {
  return { ...w, items: w.items.map((r) => ({ ...r, ...currentOf(r.cells, w.evaluations) })) };
}
