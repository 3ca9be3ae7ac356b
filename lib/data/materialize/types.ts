/** The contract every benchmark's materialiser follows (see lib/data/pull.ts). */
import type { Downloader } from "../http";
import type { Manifest, SplitName } from "../manifest";
import type { DataSource } from "../sources";

/** What a materialiser gets: the manifest, a downloader, and the staging folder it must fill. */
export interface MaterializeContext {
  src: DataSource;
  manifest: Manifest;
  dl: Downloader;
  /** Temporary folder, renamed to `finalOut` only after the materialiser returns. */
  stage: string;
  /** Where the folder will live (absolute), for paths written into item files. */
  finalOut: string;
  /** The project root, against which the benchmark resolves relative paths. */
  rootDir: string;
  log: (line: string) => void;
}

/** Items written per split, plus lines to tell the user. */
export interface MaterializeResult {
  counts: Record<SplitName, number>;
  notes: string[];
}

export type Materializer = (ctx: MaterializeContext) => Promise<MaterializeResult>;
