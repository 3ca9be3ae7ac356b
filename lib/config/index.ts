/** Run-config loading: YAML files with `_base_`, legacy flat keys, `key=value` overrides, validation. */
export { loadRunConfig, parseRunConfigText, type LoadedConfig } from "./load";
export { ConfigError } from "./errors";
export { castOverrideValue } from "./overrides";
