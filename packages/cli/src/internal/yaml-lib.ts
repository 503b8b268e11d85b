/**
 * The YAML library, loaded when a command reads or writes YAML (`kis apply`, `kis export`, a
 * `--config @file.yaml`): it adds about 10 MB to a process, which `kis ingest` of a million
 * documents should not carry for nothing.
 */
type Yaml = typeof import('yaml');

let loading: Promise<Yaml> | undefined;

export function loadYaml(): Promise<Yaml> {
  loading ??= import('yaml');
  return loading;
}
