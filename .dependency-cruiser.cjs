/**
 * Import boundaries (STYLE.md §3.2), checked by `npm run lint` and CI. The layout is the architecture:
 * lib/engine is pure; backends and envs see only the engine's ports and a few pure helpers; the browser
 * side never reaches the database, the queue or process.env.
 */
const ENGINE_PUBLIC_HELPERS =
  "^lib/engine/(ports|types|py-random|split-plan|json-extract|protected|scoring|prompts/common)\\.ts$";

/** The engine modules SkillOpt-Sleep may use: pure functions and types, no training loop. */
const SLEEP_ENGINE_PARTS = "^lib/engine/(ports|types|gate|scoring|protected|py-format|json-extract)\\.ts$";

/**
 * The web fence. The dashboard (app/, components/ and the lib/services entries they call) validates,
 * estimates, lists and reads runs; it never runs one. So nothing it loads may reach, through any chain of
 * imports, the RUNTIME below: the engine's training loop, the model clients with their SDKs and policy
 * layer, or a benchmark's environment (rollout and scoring). Only worker/ and scripts/ (the CLI) build
 * those, through lib/runs/prepare.ts.
 *
 * What the web does need is declared web-safe by name, each a leaf of pure data or functions:
 * - engine: its pure helpers, the run plan (sizes, `planRun`), leakage and blame analysis;
 * - backends: names/aliases/roles (names.ts), the catalog, registered extensions, settings, pricing and
 *   the provider contract — plus two data files inside implementation folders (the openai-compatible
 *   presets, the exec CLIs' binary lookup);
 * - benchmarks: descriptors (lib/envs/descriptors.ts, <benchmark>/descriptor.ts: sample, sim rules, seed
 *   skill, estimate factors, target checks), the split loader, row normalisers, options, the catalog and
 *   the pure answer helpers the normalisers use. Each benchmark's index.ts (create → rollout) and
 *   lib/envs/registry.ts are runtime.
 */
const ENGINE_WEB_SAFE =
  "(ports|types|py-random|split-plan|json-extract|protected|scoring|gate-evidence|prompts/common|run-plan|leakage|blame)\\.ts$";
const BACKEND_IMPLEMENTATIONS = "(openai|anthropic|azure-openai|openai-compatible|exec|sim|policy)";
const BACKEND_WEB_SAFE_DATA = "(openai-compatible/presets|exec/env|exec/types)\\.ts$";
const ENVS_WEB_SAFE = [
  "(index|descriptors|benchmark|catalog|loader)\\.ts$",
  "common/(path-guard|read-items|fingerprint|sample-files|env-options|answer)\\.ts$",
  "[^/]+/(descriptor|normalise|options)\\.ts$",
  "[^/]+/sample/[^/]+(/items)?\\.json$",
  "(searchqa/evaluate|docvqa/evaluate|docvqa/py-literal|custom/metrics|alfworld/sim/world)\\.ts$",
].join("|");
const RUNTIME = [
  `^lib/engine/(?!${ENGINE_WEB_SAFE})`,
  `^lib/backends/(?!${BACKEND_WEB_SAFE_DATA})${BACKEND_IMPLEMENTATIONS}/`,
  "^lib/backends/(registry|max-tokens|exec-settings)\\.ts$",
  "node_modules/(openai|@anthropic-ai)/",
  `^lib/envs/(?!(${ENVS_WEB_SAFE}))`,
];

/** Per-benchmark end-to-end tests of the sample presets on the simulated model. */
const SIM_RUN_TESTS = "^lib/envs/[^/]+/sim-run\\.test\\.ts$";

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
    {
      name: "contracts-are-leaf",
      comment: "lib/contracts is client-safe: zod and itself only",
      severity: "error",
      from: { path: "^lib/contracts/" },
      to: { pathNot: ["^lib/contracts/", "node_modules/zod/"] },
    },
    {
      name: "engine-is-pure",
      comment: "the engine gets everything impure through its ports",
      severity: "error",
      from: { path: "^lib/engine/", pathNot: "\\.test\\.ts$" },
      to: {
        path: [
          "^lib/(db|queue|backends|envs|runs|services|config)/",
          "^(app|components|worker)/",
          "node_modules/(next|react|react-dom|bullmq|ioredis|@prisma|openai|@anthropic-ai)/",
        ],
      },
    },
    {
      name: "engine-node-builtins",
      comment: "only node:crypto (hashing) is allowed inside the engine",
      severity: "error",
      from: { path: "^lib/engine/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["core"], pathNot: "^(node:)?crypto$" },
    },
    {
      name: "backends-envs-see-engine-ports-only",
      severity: "error",
      // A benchmark's sim-run test drives its sample preset through the whole run, like lib/runs/sim-run.test.ts.
      from: { path: "^lib/(backends|envs)/", pathNot: SIM_RUN_TESTS },
      to: { path: "^lib/engine/", pathNot: ENGINE_PUBLIC_HELPERS },
    },
    {
      name: "backends-envs-no-infra",
      severity: "error",
      from: { path: "^lib/(backends|envs)/", pathNot: SIM_RUN_TESTS },
      to: {
        path: [
          "^lib/(db|queue|runs|services)/",
          "^(app|components|worker)/",
          "node_modules/(next|bullmq|ioredis|@prisma)/",
        ],
      },
    },
    {
      name: "config-no-runtime",
      severity: "error",
      from: { path: "^lib/config/" },
      to: { path: ["^lib/(engine|db|queue|backends|runs|services)/", "^(app|components|worker)/"] },
    },
    {
      name: "components-client-safe",
      severity: "error",
      from: { path: "^components/" },
      to: { path: ["^lib/(db|queue|engine|backends|envs|runs|services)/", "^lib/config/env", "^worker/"] },
    },
    {
      name: "app-enters-through-services",
      comment:
        "routes and pages reach run setup and reads only through the service entries (lib/services), which are web-safe (web-never-reaches-runtime); besides them they may use contracts, http helpers, database reads, the queue, env and errors. SkillOpt-Sleep's library (lib/sleep) is its own entry",
      severity: "error",
      from: { path: "^app/" },
      to: {
        path: ["^worker/", "^lib/"],
        pathNot: "^lib/(services|contracts|http|db|queue|sleep)/|^lib/config/env\\.ts$|^lib/errors\\.ts$",
      },
    },
    {
      name: "web-never-reaches-runtime",
      comment:
        "reachability: nothing the web process loads (app/, components/, whatever they import — lib/services included) leads, through any chain of imports, to the engine's runtime, a model client (SDK, policy, registry) or a benchmark's environment; the worker and the CLI build those",
      severity: "error",
      from: { path: "^(app|components)/", pathNot: "\\.test\\.tsx?$" },
      to: { path: RUNTIME, reachable: true },
    },
    {
      name: "web-layers-never-reach-runtime",
      comment:
        "the same fence from the layers the web imports (the service entries, contracts, http helpers, database reads, the queue, env, errors), so the report names the layer that broke it",
      severity: "error",
      from: {
        path: "^(lib/(services|contracts|http|db|queue)/|lib/config/env\\.ts$|lib/errors\\.ts$)",
        pathNot: "\\.test\\.tsx?$",
      },
      to: { path: RUNTIME, reachable: true },
    },
    {
      name: "sleep-no-infra",
      comment:
        "SkillOpt-Sleep's core is a library: the CLI, the worker and integrations call it; it never reaches the database, the queue, the web app or the scripts",
      severity: "error",
      from: { path: "^lib/sleep/" },
      to: {
        path: [
          "^lib/(db|queue|runs|services|envs)/",
          "^(app|components|worker|scripts)/",
          "node_modules/(next|react|react-dom|bullmq|ioredis|@prisma)/",
        ],
      },
    },
    {
      name: "sleep-engine-pure-parts-only",
      comment: "Sleep reuses the engine's pure pieces (gate, scoring, ports), never its training loop",
      severity: "error",
      from: { path: "^lib/sleep/" },
      to: { path: "^lib/engine/", pathNot: SLEEP_ENGINE_PARTS },
    },
    {
      name: "worker-not-web",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: ["^app/", "^components/", "node_modules/next/"] },
    },
    {
      name: "sleep-harvest-reads-only",
      comment: "harvest only reads transcripts: the digest contract, redaction, errors and engine port types",
      severity: "error",
      from: { path: "^lib/sleep/harvest/" },
      to: {
        path: [
          "^lib/(db|queue|backends|envs|runs|services|config)/",
          "^lib/engine/(?!ports\\.ts$)",
          "^lib/sleep/(?!session-digest\\.ts$|harvest/)",
          "^(app|components|worker)/",
          "node_modules/(next|react|bullmq|ioredis|@prisma|openai|@anthropic-ai)/",
        ],
      },
    },
    {
      name: "test-helpers-only-in-tests",
      severity: "error",
      from: { pathNot: "(\\.test\\.ts$|\\.spec\\.ts$|^tests/|^e2e/|/testing[^/]*\\.ts$)" },
      to: { path: "(/testing[^/]*\\.ts$|^tests/helpers/|/test-helpers\\.ts$)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
    exclude: { path: "(^|/)(node_modules|\\.next|generated)/" },
  },
};
