/**
 * lib/data: downloading benchmark data and materialising the `split_dir` each preset reads
 * (`npm run skillopt -- data pull <benchmark>`). Free of Next, BullMQ and Prisma; networking goes
 * through an injectable `fetch`.
 */
export {  checkMirror,     } from "./http";
export { pullBenchmark,   } from "./pull";
;
;
export { DATA_BENCHMARKS, SOURCES, datasetFileUrl, datasetTreeUrl,  manifestUrl,   } from "./sources";
