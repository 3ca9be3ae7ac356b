/**
 * Redis connection options for BullMQ and pub/sub, from REDIS_URL.
 */
import type { ConnectionOptions } from "bullmq";
import { env } from "../config/env";

export function redisOptions(url = env().REDIS_URL): ConnectionOptions & { host: string; port: number } {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined,
    // Blocking commands of Worker / QueueEvents need this.
    maxRetriesPerRequest: null,
  };
}
