/**
 * The shape of `@kis/spec/connector-fields.json`, the table of each source's config fields and
 * credential keys that scripts/connector-fields.mjs reads from the spec's ConnectorConfigBySource
 * and CredentialJsonBySource (docs/connector-configs.md). Types only: the table is the JSON file.
 */

/** One config field, as the deployed admin interface asks for it. */
export interface ConnectorField {
  name: string;
  /** `string`, `boolean`, `integer`, `number`, `enum`, `object`, `file`, or a list `T[]`. */
  kind: string;
  label: string;
  required?: boolean;
  /** Not required by the interface, but the server needs it to build the connector. */
  serverRequired?: boolean;
  default?: unknown;
  options?: unknown[];
  nullable?: boolean;
  /** The value is a list (also for kinds without `[]`, such as `file` and `object`). */
  list?: boolean;
  advanced?: boolean;
  hidden?: boolean;
  /** Taken by the server's connector but not asked for by the interface. */
  notInInterface?: boolean;
  itemKeys?: string[];
}

/** An exclusive group: the fields of one choice only (tabs in the admin interface). */
export interface ConnectorFieldGroup {
  name: string;
  label: string;
  default?: string;
  options: { value: string; label: string; fields: string[] }[];
}

/** A source's entry in the table. */
export interface SourceFields {
  /** Deployed servers refuse keys the entry does not list. */
  closed: boolean;
  /** The `input_type` the admin interface creates the source's connectors with. */
  inputType?: string;
  fields: ConnectorField[];
  groups: ConnectorFieldGroup[];
  credential?: { keys: { name: string; required?: boolean }[]; alternatives?: string[][] };
}

/** The whole table, by source value. */
export interface ConnectorFieldsTable {
  sources: Record<string, SourceFields>;
}
