/** Run-config loading: YAML files with `_base_`, legacy flat keys, `key=value` overrides, validation. */
export { loadRunConfig, parseRunConfigText, type LoadedConfig, type LoadOptions } from "./load";
export { ConfigError, OVERRIDES_SOURCE } from "./errors";
export { castOverrideValue } from "./overrides";
