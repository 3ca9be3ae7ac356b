/** A small line logger for the worker process (timestamps, levels, one line each). */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export function createLogger(name: string, stream: NodeJS.WritableStream = process.stdout): Logger {
  const line = (level: string, msg: string) => stream.write(`${new Date().toISOString()} ${level} [${name}] ${msg}\n`);
  return { info: (m) => line("info", m), warn: (m) => line("warn", m) };
}
