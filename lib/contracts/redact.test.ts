import { describe, expect, it } from "vitest";
import { redactDeep, redactSecrets, redactText } from "./redact";

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
    expect(redactText("a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----\nb")).toBe("a\n[REDACTED_PRIVATE_KEY]\nb");
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
    const out = redactDeep({ note: ["key sk-abcdefghijklmnop1234"], nested: { apiKey: "plain", count: 3 }, maxTokens: 10 });
    expect(out).toEqual({ note: ["key [REDACTED_OPENAI_KEY]"], nested: { apiKey: "[REDACTED]", count: 3 }, maxTokens: 10 });
  });

  it("keeps the key-name masking of redactSecrets unchanged", () => {
    expect(redactSecrets({ openai_api_key: "sk-1234567890abcd" })).toEqual({ openai_api_key: "sk-1...abcd" });
  });
});
