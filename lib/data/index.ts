/**
 * lib/data: downloading benchmark data and materialising the `split_dir` each preset reads
 * (`npm run skillopt -- data pull <benchmark>`). Free of Next, BullMQ and Prisma; networking goes
 * through an injectable `fetch`.
 */
export { applyMirror, checkMirror, createDownloader, type Downloader, type DownloaderOptions, type FetchLike } from "./http";
export { pullBenchmark, type PullOptions, type PullResult } from "./pull";
export { readParquetRows } from "./parquet";
export { readTar } from "./tar";
export { DATA_BENCHMARKS, SOURCES, datasetFileUrl, datasetTreeUrl, findDataSource, manifestUrl, type DataBenchmark, type DataSource } from "./sources";
