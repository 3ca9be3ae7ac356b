import { describe, expect, it } from "vitest";
import { redactDeep, redactSecrets, redactText } from "./redact";

// Fake credentials shaped like the real ones; none of them is valid anywhere.
const OPENAI = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t";
const AWS = "AKIAIOSFODNN7EXAMPLE";
const GITHUB = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
const SLACK = "xoxb-123456789012-abcdefABCDEF";
const GOOGLE = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk";

describe("redactText", () => {
  it.each([
    ["OpenAI-style key", `export OPENAI=${OPENAI} now`, OPENAI, "[REDACTED_OPENAI_KEY]"],
    ["AWS access key", `key ${AWS} in the log`, AWS, "[REDACTED_AWS_KEY]"],
    ["GitHub token", `remote uses ${GITHUB}`, GITHUB, "[REDACTED_GITHUB_TOKEN]"],
    ["Slack token", `bot ${SLACK}`, SLACK, "[REDACTED_SLACK_TOKEN]"],
    ["Google key", `maps ${GOOGLE}`, GOOGLE, "[REDACTED_GOOGLE_KEY]"],
    ["JWT", `cookie=${JWT}`, JWT, "[REDACTED_JWT]"],
  ])("replaces a %s by its marker", (_kind, text, secret, marker) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(marker);
  });

  it("removes a whole PEM private key, and one cut off before its END line", () => {
    const body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7";
    const pem = `before\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\nafter`;
    expect(redactText(pem)).toBe("before\n[REDACTED_PRIVATE_KEY]\nafter");
    expect(redactText(`x -----BEGIN PRIVATE KEY-----\n${body}`)).toBe("x [REDACTED_PRIVATE_KEY]");
  });

  it("keeps the user and host of a database URL but not its password", () => {
    expect(redactText("DATABASE_URL is postgres://app:s3cr3t-pw@db.internal:5432/main")).toBe(
      "DATABASE_URL is postgres://app:[REDACTED_DB_PASS]@db.internal:5432/main",
    );
    expect(redactText("see https://example.com/docs")).toBe("see https://example.com/docs");
  });

  it("redacts name=value and JSON assignments of secret-looking names, keeping the quotes", () => {
    expect(redactText("MY_API_KEY=abc123def456")).toBe("MY_API_KEY=[REDACTED]");
    expect(redactText('{"password": "hunter2", "user": "bob"}')).toBe('{"password": "[REDACTED]", "user": "bob"}');
    expect(redactText("db_password: 'p@ss word'")).toBe("db_password: '[REDACTED]'");
    expect(redactText('{\\"client_secret\\": \\"abc def\\"}')).toBe('{\\"client_secret\\": \\"[REDACTED]\\"}');
    expect(redactText("Authorization: Bearer abc.def")).toBe("Authorization: Bearer [REDACTED]");
    expect(redactText("curl -H 'x' --token=tok_9f8e7d6c")).toBe("curl -H 'x' --token=[REDACTED]");
  });

  it("redacts a bare bearer token that looks machine-made", () => {
    expect(redactText("sent Bearer 0a1b2c3d4e5f6a7b8c9d")).toBe("sent Bearer [REDACTED]");
    expect(redactText("the Bearer authentication scheme")).toBe("the Bearer authentication scheme");
  });

  it("leaves ordinary prose, token budgets and the shell's PWD alone", () => {
    const prose = "Set max_tokens: 4000 and token_budget=12; PWD=/home/me; the secret sauce is tests.";
    expect(redactText(prose)).toBe(prose);
    expect(redactText("ask the task-runner to mask it")).toBe("ask the task-runner to mask it");
  });

  it("is idempotent", () => {
    const text = `token=${OPENAI} ${JWT} "password": "x" postgres://u:p@h/db Authorization: Bearer ${GITHUB}`;
    const once = redactText(text);
    expect(redactText(once)).toBe(once);
    for (const secret of [OPENAI, JWT, GITHUB, "u:p@"]) expect(once).not.toContain(secret);
  });
});

describe("redactText (free-text secrets, spec D.8)", () => {
  it.each([
    ["an OpenAI key sk-abcdefghijklmnop1234 here", "an OpenAI key [REDACTED_OPENAI_KEY] here"],
    ["aws AKIAABCDEFGHIJKLMNOP end", "aws [REDACTED_AWS_KEY] end"],
    ["gh ghp_abcdefghijklmnopqrstuvwxyz12 x", "gh [REDACTED_GITHUB_TOKEN] x"],
    ["slack xoxb-1234567890-abcdef", "slack [REDACTED_SLACK_TOKEN]"],
    ["google AIzaSyA1234567890abcdefghijklmnop", "google [REDACTED_GOOGLE_KEY]"],
    ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop", "jwt [REDACTED_JWT]"],
    ["postgres://app:s3cret@db.local:5432/app", "postgres://app:[REDACTED_DB_PASS]@db.local:5432/app"],
    ["Authorization: Bearer abcdef1234567890", "Authorization: Bearer [REDACTED]"],
    ["password: hunter2; user=bob", "password: [REDACTED]; user=bob"],
    ['{"api_key": "abc123xyz", "max_tokens": 512}', '{"api_key": "[REDACTED]", "max_tokens": 512}'],
    ["AZURE_CLIENT_SECRET='a b c'", "AZURE_CLIENT_SECRET='[REDACTED]'"],
  ])("%s", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it("removes a whole PEM private key block, even one cut off at the end", () => {
    expect(redactText("a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----\nb")).toBe(
      "a\n[REDACTED_PRIVATE_KEY]\nb",
    );
    expect(redactText("-----BEGIN PRIVATE KEY-----\nMIIEabc")).toBe("[REDACTED_PRIVATE_KEY]");
  });

  it("leaves ordinary text and token counts alone, and does not redact twice", () => {
    const text = "max_tokens=400 tokens_used: 5; the token budget; task-abcdefghijklmnop";
    expect(redactText(text)).toBe(text);
    expect(redactText("token=[REDACTED] ok")).toBe("token=[REDACTED] ok");
  });
});

describe("redactDeep", () => {
  it("redacts every string and every secret-named field, recursively", () => {
    const out = redactDeep({
      note: ["key sk-abcdefghijklmnop1234"],
      nested: { apiKey: "plain", count: 3 },
      maxTokens: 10,
    });
    expect(out).toEqual({
      note: ["key [REDACTED_OPENAI_KEY]"],
      nested: { apiKey: "[REDACTED]", count: 3 },
      maxTokens: 10,
    });
  });

  it("keeps the key-name masking of redactSecrets unchanged", () => {
    expect(redactSecrets({ openai_api_key: "sk-1234567890abcd" })).toEqual({ openai_api_key: "sk-1...abcd" });
  });
});
