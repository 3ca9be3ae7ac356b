/**
 * The file store's writes, done on a worker thread in the order they were issued. A step writes a few
 * hundred small files (three per rollout row); through `fs/promises` each costs the main thread about as
 * much as the write itself (a FileHandle, several thread-pool round trips and promises), which delays the
 * timers and answers of the run's model calls. Here the main thread only queues an operation; the
 * operations of one turn of the event loop go to the worker in one message, and the worker writes them
 * with plain synchronous calls, one after another.
 *
 * - Operations land in exactly the order they were queued (one worker, one queue, one writer per store).
 * - The first failed operation fails the writer: nothing queued after it lands, and `failure` keeps it.
 * - `queue` returns a promise that settles (never rejects) once the operation has landed or the writer
 *   has failed. The worker holds the process open only while operations are in flight.
 */
import { Worker } from "node:worker_threads";

export type DiskOp =
  { kind: "put"; path: string; data: string; atomic: boolean } | { kind: "append"; path: string; data: string };

/** The worker's source (CommonJS, run with `eval`, so that it loads the same under tsx, vitest and node). */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const made = new Set();
const failed = new Map();
let tmp = 0;
parentPort.on("message", ({ writer, id, appends, paths, atomic, ends, bytes }) => {
  let error = failed.get(writer) ?? null;
  if (!error) {
    try {
      for (let i = 0, start = 0; i < paths.length; start = ends[i++]) {
        const op = { path: paths[i], data: Buffer.from(bytes, start, ends[i] - start) };
        const dir = path.dirname(op.path);
        const madeKey = writer + "\\0" + dir;
        if (!made.has(madeKey)) {
          fs.mkdirSync(dir, { recursive: true });
          made.add(madeKey);
        }
        if (appends[i]) fs.appendFileSync(op.path, op.data);
        else if (!atomic[i]) fs.writeFileSync(op.path, op.data);
        else {
          const t = op.path + ".tmp-" + process.pid + "-" + tmp++;
          fs.writeFileSync(t, op.data);
          fs.renameSync(t, op.path);
        }
      }
    } catch (e) {
      error = { message: String((e && e.message) || e), code: e && e.code };
      failed.set(writer, error);
    }
  }
  parentPort.postMessage({ writer, id, error });
});
`;

type Reply = { writer: number; id: number; error: { message: string; code?: string } | null };
type InFlight = { ops: number; settle: () => void };

let shared: Worker | null = null;
let inFlight = 0;
const handlers = new Map<number, (reply: Reply) => void>();

/** One worker for the process; referenced only while some batch is in flight. */
function worker(): Worker {
  if (!shared) {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    w.on("message", (reply: Reply) => handlers.get(reply.writer)?.(reply));
    w.on("error", (err) => {
      for (const h of handlers.values()) h({ writer: -1, id: -1, error: { message: String(err) } });
    });
    w.unref();
    shared = w;
  }
  return shared;
}

/**
 * A batch as one transferred buffer of every operation's bytes (moved to the worker, not copied) and small
 * arrays of paths, flags and end offsets: cloning hundreds of op objects per message cost the main thread
 * more than the writes they replaced.
 */
function encode(ops: DiskOp[]) {
  const ends: number[] = [];
  let total = 0;
  for (const op of ops) ends.push((total += Buffer.byteLength(op.data, "utf8")));
  const buf = Buffer.allocUnsafeSlow(total);
  ops.forEach((op, i) => buf.write(op.data, i === 0 ? 0 : ends[i - 1]!, "utf8"));
  return {
    paths: ops.map((op) => op.path),
    appends: ops.map((op) => op.kind === "append"),
    atomic: ops.map((op) => op.kind === "put" && op.atomic),
    ends,
    bytes: buf.buffer as ArrayBuffer,
  };
}

let nextWriter = 0;

export class DiskWriter {
  private readonly id = nextWriter++;
  private pending: DiskOp[] = [];
  private pendingDone: Promise<void> | null = null;
  private pendingSettle: (() => void) | null = null;
  private readonly batches = new Map<number, InFlight>();
  private nextBatch = 0;
  /** Operations queued and not yet landed (or failed). */
  unlanded = 0;
  failure: { error: unknown } | null = null;

  /** Queues `op` after every earlier one; the promise settles when it has landed or the writer failed. */
  queue(op: DiskOp): Promise<void> {
    // Registered only while something is queued, so an idle writer is not kept alive by the table.
    if (this.unlanded === 0) handlers.set(this.id, (reply) => this.onReply(reply));
    if (!this.pendingDone) {
      this.pendingDone = new Promise<void>((resolve) => (this.pendingSettle = resolve));
      setImmediate(() => this.send());
    }
    this.pending.push(op);
    this.unlanded += 1;
    return this.pendingDone;
  }

  /** Settles when the oldest batch still unlanded has landed (the batch being gathered is sent first). */
  async oldest(): Promise<void> {
    if (this.batches.size === 0) {
      const done = this.pendingDone;
      this.send();
      return done ?? undefined;
    }
    const first = this.batches.values().next().value as InFlight;
    await new Promise<void>((resolve) => {
      const settle = first.settle;
      first.settle = () => {
        settle();
        resolve();
      };
    });
  }

  /** Settles once everything queued so far has landed (or the writer failed). */
  async drain(): Promise<void> {
    while (this.unlanded > 0) await this.oldest();
  }

  private send(): void {
    if (this.pending.length === 0 || !this.pendingSettle) return;
    const ops = this.pending;
    const id = this.nextBatch++;
    this.batches.set(id, { ops: ops.length, settle: this.pendingSettle });
    this.pending = [];
    this.pendingDone = null;
    this.pendingSettle = null;
    const w = worker();
    if (inFlight++ === 0) w.ref();
    const msg = encode(ops);
    w.postMessage({ writer: this.id, id, ...msg }, [msg.bytes]);
  }

  private onReply({ id, error }: Reply): void {
    if (error && !this.failure) this.failure = { error: Object.assign(new Error(error.message), { code: error.code }) };
    // A worker crash (id -1) fails every batch in flight.
    const done = id === -1 ? [...this.batches.keys()] : [id];
    for (const b of done) {
      const batch = this.batches.get(b);
      if (!batch) continue;
      this.batches.delete(b);
      this.unlanded -= batch.ops;
      if (--inFlight === 0) shared?.unref();
      batch.settle();
    }
    if (this.unlanded === 0) handlers.delete(this.id);
  }
}
