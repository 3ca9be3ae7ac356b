/**
 * Next.js start-up hook (runs once per server process, before it answers): registers the backends and
 * benchmarks of SKILLOPT_EXTENSIONS, as the worker and the CLI do, so the New run form lists them and runs
 * naming them are accepted. A file that cannot be loaded stops the dashboard with an error naming it.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { describeExtensions, loadConfiguredExtensions } = await import("./lib/services/extensions");
  const loaded = await loadConfiguredExtensions(process.cwd());
  if (loaded.length > 0) console.log(`[web] extensions: ${describeExtensions(loaded)}`);
}
