export { JOBS, OptimizeRunPayloadSchema, QUEUES, runChannel, type OptimizeRunPayload } from "./contracts";
export { redisOptions } from "./connection";
