export { OptimizeRunPayloadSchema, QUEUES, runChannel } from "./contracts";
export { redisOptions } from "./connection";
