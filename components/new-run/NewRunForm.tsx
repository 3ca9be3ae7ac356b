"use client";
import { isApiError } from "../api-client";
import { Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { Notice } from "../ui/Notice";
import { configSectionsFor } from "./config-fields";
import { ConfigSectionFields } from "./ConfigSectionFields";
import { CustomDataCard } from "./CustomDataCard";
import { EstimatePanel } from "./EstimatePanel";
import { FieldError } from "./FieldError";
import { PresetPicker, SIM_LATENCY_KEY, WATCH_LATENCY_MS } from "./PresetPicker";
import { RolePickers } from "./RolePickers";
import { SkillEditor } from "./SkillEditor";
import { useEstimate } from "./use-estimate";
import { fieldOf, useNewRunForm } from "./use-new-run-form";

/** `/runs/new` — preset, models, every hyper-parameter, the seed skill, and a live pre-flight estimate. */
export function NewRunForm() {
  const m = useNewRunForm();
  const estimate = useEstimate(m.body);
  const loadError = m.presets.error ?? m.backends.error;
  if (loadError)
    return (
      <Notice tone="error" title="Could not load presets or backends">
        {loadError.message}
      </Notice>
    );
  if (m.presets.isPending || m.backends.isPending) return <p className="text-gray-500">Loading presets…</p>;
  if (!m.preset || !m.form) {
    return (
      <Notice tone="error" title="No usable preset">
        No valid YAML preset was found under configs/. Add one (see configs/searchqa/sample.yaml).
      </Notice>
    );
  }
  const { form, preset, fieldErrors } = m;
  const serverError = m.create.error;
  const changedCount = Object.keys(m.body?.overrides ?? {}).length + (m.body?.skill !== undefined ? 1 : 0);
  const estimateError = estimate.error
    ? `${fieldOf(isApiError(estimate.error) ? estimate.error.field : undefined) ?? "request"}: ${estimate.error.message}`
    : null;

  return (
    <form
      className="grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_360px]"
      data-testid="new-run-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        m.submit();
      }}
    >
      <div className="min-w-0 space-y-4">
        <div className="flex items-center justify-between">
          <h1 className="text-lg font-semibold">New run</h1>
          <span className="text-xs text-gray-500">
            {changedCount === 0
              ? "Preset values"
              : `${changedCount} change${changedCount > 1 ? "s" : ""} from the preset`}
          </span>
        </div>
        {m.blockedBy.length > 0 && (
          <Notice tone="error" title="Fix these fields to start the run" testId="form-error-summary">
            <ul className="list-inside list-disc">
              {m.blockedBy.map(([k, msg]) => (
                <li key={k}>
                  <span className="font-mono">{k}</span>: {msg}
                </li>
              ))}
            </ul>
          </Notice>
        )}
        {serverError && m.blockedBy.length === 0 && (
          <Notice tone="error" title="The run was not started" testId="form-error-summary">
            {isApiError(serverError) && serverError.field ? `${fieldOf(serverError.field)}: ` : ""}
            {serverError.message.replace(`${fieldOf(isApiError(serverError) ? serverError.field : undefined)}: `, "")}
          </Notice>
        )}
        <Card title="Benchmark and models" bodyClassName="space-y-4 p-3">
          <div className="max-w-xl">
            <label htmlFor="run-name" className="text-xs font-medium text-gray-800">
              Run name
            </label>
            <input
              id="run-name"
              className="mt-0.5 w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm shadow-xs focus:border-indigo-500 focus:outline-none"
              value={m.name}
              maxLength={120}
              onChange={(e) => m.setName(e.target.value)}
              placeholder={`optional — defaults to “${preset.env} · ${preset.path.replace(/\.ya?ml$/, "")} · date”`}
            />
            <FieldError field="name" message={fieldErrors.name} />
          </div>
          <PresetPicker
            presets={m.usable}
            selected={preset}
            onSelect={m.selectPreset}
            error={fieldErrors.preset}
            watch={
              form.roles.optimizer.backend === "sim" || form.roles.target.backend === "sim"
                ? {
                    on: Number(form.values[SIM_LATENCY_KEY]) > 0,
                    onChange: (on) => m.setValue(SIM_LATENCY_KEY, on ? String(WATCH_LATENCY_MS) : "0"),
                  }
                : null
            }
          />
          <RolePickers
            backends={m.backends.data ?? []}
            roles={form.roles}
            presetRoles={form.presetRoles}
            notes={form.roleNotes}
            errors={fieldErrors}
            onChange={m.setRole}
          />
        </Card>
        {m.custom.active && (
          <CustomDataCard model={m.custom} errors={fieldErrors} optimizerBackend={form.roles.optimizer.backend} />
        )}
        {configSectionsFor(preset.env, preset.title).map((s) => (
          <ConfigSectionFields
            key={s.id}
            section={s}
            values={form.values}
            baseline={form.baseline}
            errors={fieldErrors}
            onChange={m.setValue}
            onReset={m.resetValue}
            defaultOpen={s.id === "train"}
          />
        ))}
        <Card title="Seed skill">
          <SkillEditor
            value={form.skill}
            presetValue={preset.initialSkill}
            onChange={m.setSkill}
            onReset={m.resetSkill}
            error={fieldErrors.skill}
          />
        </Card>
      </div>
      <aside className="space-y-3 xl:sticky xl:top-16">
        <Card
          title="Pre-flight estimate"
          bodyClassName=""
          actions={estimate.isFetching ? <span className="text-gray-500">updating…</span> : null}
        >
          <EstimatePanel
            estimate={estimate.data}
            loading={estimate.isPending}
            stale={estimate.isPlaceholderData || estimate.isFetching}
            error={estimateError}
            blocked={!m.valid}
          />
        </Card>
        {estimate.data?.simCoverage && !estimate.isPlaceholderData && (
          <Notice tone="warn" title="The simulated model does not know this data" testId="sim-coverage">
            It has no annotations for {estimate.data.simCoverage.unannotated} of {estimate.data.simCoverage.total}{" "}
            items, so it will answer them wrongly and score them 0 whatever the skill says: the run shows the loop, not
            learning. Choose a real backend for the target (OpenAI, Anthropic, a compatible server) to train on this
            data.
          </Notice>
        )}
        <Button
          type="submit"
          variant="primary"
          className="w-full py-2"
          data-testid="submit-run"
          disabled={m.create.isPending}
        >
          {m.create.isPending ? "Starting run…" : "Start run"}
        </Button>
        {!m.valid && <p className="text-center text-xs text-red-700">Some fields are invalid (highlighted in red).</p>}
      </aside>
    </form>
  );
}
