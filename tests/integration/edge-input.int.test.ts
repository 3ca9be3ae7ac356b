/**
 * Bad input at the HTTP edge, through the route handlers with real Request objects: oversized and deeply
 * nested bodies are refused with 413/422 before anything is stored, and a quick fuzz of every route
 * (wrong types, huge strings, odd unicode, missing or mistyped bodies) never reaches a 500.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as backendsRoute from "../../app/api/backends/route";
import * as presetsRoute from "../../app/api/presets/route";
import * as runRoute from "../../app/api/runs/[runId]/route";
import * as datasetRoute from "../../app/api/runs/[runId]/dataset/route";
import * as evalsRoute from "../../app/api/runs/[runId]/evals/route";
import * as eventsRoute from "../../app/api/runs/[runId]/events/route";
import * as exportRoute from "../../app/api/runs/[runId]/export/route";
import * as stepRoute from "../../app/api/runs/[runId]/steps/[step]/route";
import * as compareRoute from "../../app/api/runs/compare/route";
import * as estimateRoute from "../../app/api/runs/estimate/route";
import * as runsRoute from "../../app/api/runs/route";
import * as uploadsRoute from "../../app/api/uploads/route";
import type { Db } from "../../lib/db/client";
import { closeQueue } from "../../lib/queue/producer";
import { UPLOADS_DIR } from "../../lib/runs/uploads";
import { freshDb, useAsDefaultDb } from "../helpers/db";

const base = "http://127.0.0.1:7860";
const MISSING_RUN = "00000000-0000-4000-8000-000000000000";
type Body = string | Uint8Array<ArrayBuffer> | FormData | null;

function request(method: string, path: string, body: Body = null, headers: Record<string, string> = {}): Request {
  const h: Record<string, string> = { ...headers };
  if (typeof body === "string" && h["content-type"] === undefined) h["content-type"] = "application/json";
  if (typeof body === "string" || body instanceof Uint8Array)
    h["content-length"] ??= String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  return new Request(`${base}${path}`, { method, body, headers: h });
}
const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

function uploadsSnapshot(): string[] {
  const dir = join(process.cwd(), UPLOADS_DIR);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

let db: Db;
beforeAll(async () => {
  db = (await freshDb("sqlite")).db;
  useAsDefaultDb(db);
});
afterAll(async () => {
  await closeQueue();
  await db.$disconnect();
});

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string; field?: string }> {
  const body = (await res.json()) as { error: { code: string; message: string; field?: string } };
  return { status: res.status, ...body.error };
}

describe("size and depth limits", () => {
  it("a 20 MB skill posted to /api/runs is a 413 naming the limit, and no run is created", async () => {
    const body = JSON.stringify({ preset: "searchqa/sample.yaml", skill: "# skill ".repeat(2.5 * 1024 * 1024) });
    for (const route of [runsRoute, estimateRoute]) {
      const err = await errorOf(await route.POST(request("POST", "/api/runs", body)));
      expect(err).toEqual({
        status: 413,
        code: "PAYLOAD_TOO_LARGE",
        field: "body",
        message: "body: the request body is 20.0 MB; the limit is 2 MB (the skill may be at most 200 KB)",
      });
    }
    expect(await db.run.count()).toBe(0);
  });

  it("a skill just over 200 KB says so, on the skill field", async () => {
    const err = await errorOf(
      await runsRoute.POST(
        request("POST", "/api/runs", JSON.stringify({ preset: "searchqa/sample.yaml", skill: "x".repeat(201 * 1024) })),
      ),
    );
    expect(err).toMatchObject({ status: 422, field: "skill", message: "skill: the skill is over 200 KB" });
  });

  it("thousands of overrides are refused at once instead of keeping the config loader busy", async () => {
    const overrides = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`train.k${i}`, i]));
    const started = performance.now();
    const err = await errorOf(
      await estimateRoute.POST(
        request("POST", "/api/runs/estimate", JSON.stringify({ preset: "searchqa/sample.yaml", overrides })),
      ),
    );
    expect(err).toMatchObject({ status: 422, field: "overrides", message: "overrides: at most 500 overrides" });
    // Generous: before the cap this took tens of seconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("deeply nested JSON bodies are 422s naming the field and the limit, with nothing written", async () => {
    const deep = `{"preset":"searchqa/sample.yaml","overrides":${nested(10_000)}}`;
    expect(await errorOf(await runsRoute.POST(request("POST", "/api/runs", deep)))).toMatchObject({
      status: 422,
      field: "overrides",
      message: "overrides: nested deeper than 64 levels",
    });
    expect(await errorOf(await estimateRoute.POST(request("POST", "/api/runs/estimate", deep)))).toMatchObject({
      status: 422,
      field: "overrides",
    });
    const patch = await runRoute.PATCH(
      request("PATCH", "/x", `{"action":"resume","budget":${nested(100)}}`),
      params({ runId: MISSING_RUN }),
    );
    expect(await errorOf(patch)).toMatchObject({
      status: 422,
      field: "budget",
      message: "budget: nested deeper than 64 levels",
    });
    expect(await db.run.count()).toBe(0);
  });

  it("a deeply nested JSONL upload is a 422 naming the line, and nothing lands under .skillopt/uploads", async () => {
    const before = uploadsSnapshot();
    const form = new FormData();
    form.set(
      "file",
      new File(
        [`{"question":"q","answer":"a"}\n{"question":"q","answer":${"[".repeat(100_000)}${"]".repeat(100_000)}}\n`],
        "deep.jsonl",
      ),
    );
    const err = await errorOf(await uploadsRoute.POST(request("POST", "/api/uploads", form)));
    expect(err).toMatchObject({
      status: 422,
      field: "file",
      message: expect.stringMatching(/^file: deep\.jsonl: line 2 nests deeper than 64 levels/),
    });
    expect(uploadsSnapshot()).toEqual(before);
  });

  it("an upload over 20 MB is a 413 naming its size and the limit, and nothing is stored", async () => {
    const before = uploadsSnapshot();
    const form = new FormData();
    form.set("file", new File([new Uint8Array(Math.round(23.4 * 1024 * 1024)).fill(0x61)], "big.csv"));
    const body = new Uint8Array(await new Response(form).arrayBuffer());
    const type = new Response(form).headers.get("content-type")!;
    const err = await errorOf(await uploadsRoute.POST(request("POST", "/api/uploads", body, { "content-type": type })));
    expect(err).toEqual({
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
      field: "file",
      message: "file: the upload is 23.4 MB; the limit is 20 MB",
    });
    expect(uploadsSnapshot()).toEqual(before);
  });
});

/** Inputs a careless or hostile client sends; none of them may produce a 500. */
const JUNK_BODIES: Array<[string, Body, Record<string, string>?]> = [
  ["no body", null],
  ["empty body", ""],
  ["JSON null", "null"],
  ["a JSON array", "[1,2]"],
  ["a JSON number", "123"],
  ["a JSON string", '"hello"'],
  ["text/plain garbage", "\u0000\u0001 not json", { "content-type": "text/plain" }],
  ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])],
  ["lone surrogate", '{"preset":"\\ud800.yaml","name":"\\udfff"}'],
  ["wrong types", '{"preset":1,"overrides":[],"skill":5,"name":{}}'],
  [
    "override values of the wrong type",
    '{"preset":"searchqa/sample.yaml","overrides":{"train.num_epochs":{"x":1},"env.name":[1]}}',
  ],
  [
    "prototype keys",
    '{"__proto__":{"admin":true},"constructor":{"prototype":{}},"preset":"searchqa/sample.yaml","overrides":{"__proto__":1}}',
  ],
  [
    "huge override value",
    JSON.stringify({ preset: "searchqa/sample.yaml", overrides: { "train.num_epochs": "9".repeat(1_000_000) } }),
  ],
  [
    "many override keys",
    JSON.stringify({
      preset: "searchqa/sample.yaml",
      overrides: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`train.k${i}`, i])),
    }),
  ],
  ["unicode everywhere", JSON.stringify({ preset: "ñ/ü😀.yaml", name: "名前\u202e", overrides: { "env.name": "😀" } })],
  ["a traversal preset", JSON.stringify({ preset: "../../../../etc/hosts.yaml" })],
  ["an absolute preset", JSON.stringify({ preset: "/etc/ssl/openssl.yaml" })],
  [
    "extreme numbers",
    JSON.stringify({
      preset: "searchqa/sample.yaml",
      overrides: { "train.num_epochs": 1e308, "train.batch_size": -1e308, "train.seed": 1.5 },
    }),
  ],
  [
    "multipart where JSON is expected",
    '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n',
    { "content-type": "multipart/form-data; boundary=b" },
  ],
];

const JUNK_IDS = ["", "%00", "x".repeat(5000), "😀", "../../etc/passwd", MISSING_RUN.toUpperCase(), MISSING_RUN];

function expectNo500(label: string, res: Response) {
  expect(res.status, label).toBeLessThan(500);
}

describe("fuzz: no bad input reaches a 500", () => {
  it.each(JUNK_BODIES)("JSON routes: %s", async (_label, body, headers) => {
    expectNo500("POST /api/runs", await runsRoute.POST(request("POST", "/api/runs", body, headers)));
    expectNo500(
      "POST /api/runs/estimate",
      await estimateRoute.POST(request("POST", "/api/runs/estimate", body, headers)),
    );
    expectNo500(
      "PATCH /api/runs/:id",
      await runRoute.PATCH(request("PATCH", "/x", body, headers), params({ runId: MISSING_RUN })),
    );
    expectNo500("POST /api/uploads", await uploadsRoute.POST(request("POST", "/api/uploads", body, headers)));
  });

  it("upload forms: missing file, a string field, odd names, empty, BOM-only, prototype columns", async () => {
    const before = uploadsSnapshot();
    const forms: Array<[string, (f: FormData) => void]> = [
      ["no file", () => {}],
      ["a string field", (f) => f.set("file", "just text")],
      ["an empty file", (f) => f.set("file", new File([], "e.csv"))],
      ["a BOM only", (f) => f.set("file", new File(["\uFEFF"], "b.csv"))],
      ["a header-only CSV", (f) => f.set("file", new File(["a,b\n"], "h.csv"))],
      ["a CSV with an unclosed quote", (f) => f.set("file", new File(['a,b\n"x,1\n'], "q.csv"))],
      ["a JSONL of scalars", (f) => f.set("file", new File(["1\n2\n"], "s.jsonl"))],
    ];
    for (const [label, fill] of forms) {
      const form = new FormData();
      fill(form);
      const res = await uploadsRoute.POST(request("POST", "/api/uploads", form));
      expect(res.status, label).toBe(422);
      expect((await errorOf(res)).field, label).toBe("file");
    }
    expect(uploadsSnapshot()).toEqual(before);
  });

  it("a file name is only a label: traversal or odd unicode in it still stores under .skillopt/uploads/<sha256>", async () => {
    for (const name of ["../../../../tmp/escape.jsonl", "données😀\u202e.jsonl"]) {
      const form = new FormData();
      form.set("file", new File([`{"question":"q","answer":"${name}"}\n`], name));
      const res = await uploadsRoute.POST(request("POST", "/api/uploads", form));
      expect(res.status, name).toBe(201);
      const info = (await res.json()) as { path: string; fileName: string };
      expect(info.path).toMatch(/^\.skillopt\/uploads\/[0-9a-f]{64}\.jsonl$/);
      expect(info.fileName).toBe(name);
      rmSync(join(process.cwd(), info.path));
    }
  });

  it("GET routes with junk ids and queries", async () => {
    for (const id of JUNK_IDS) {
      const p = params({ runId: id });
      expectNo500(`get ${id}`, await runRoute.GET(request("GET", "/x"), p));
      expectNo500(`dataset ${id}`, await datasetRoute.GET(request("GET", "/x"), p));
      expectNo500(`evals ${id}`, await evalsRoute.GET(request("GET", "/x?step=abc&label=" + "x".repeat(100)), p));
      expectNo500(`export ${id}`, await exportRoute.GET(request("GET", "/x?what=evil"), p));
      expectNo500(
        `events ${id}`,
        await eventsRoute.GET(request("GET", "/x?cursor=-1", null, { "last-event-id": "1e999" }), p),
      );
      for (const step of ["", "0", "-1", "1e999", "0x10", "1.5", "😀"]) {
        expectNo500(`step ${id}/${step}`, await stepRoute.GET(request("GET", "/x"), params({ runId: id, step })));
      }
    }
    for (const q of [
      "status=bogus",
      "limit=-1",
      "limit=1e999",
      "cursor=abc",
      "env=" + "x".repeat(10_000),
      "status=queued&status=failed",
    ]) {
      expectNo500(`list ${q}`, await runsRoute.GET(request("GET", `/api/runs?${q}`)));
    }
    for (const ids of [
      "",
      ",,,",
      "a,b",
      Array.from({ length: 1000 }, () => MISSING_RUN).join(","),
      `${MISSING_RUN},${MISSING_RUN.replace(/0$/, "1")}`,
    ]) {
      expectNo500(
        `compare ${ids.slice(0, 40)}`,
        await compareRoute.GET(request("GET", `/api/runs/compare?ids=${ids}`)),
      );
    }
    expectNo500("presets", await presetsRoute.GET());
    expectNo500("backends", await backendsRoute.GET());
  });
});
