// What deployed servers check of a connector's configuration when a credential is associated:
// they build the source's connector from `connector_specific_config`, so a key the connector does
// not take (for sources that refuse unknown keys) or a parameter it needs fails there. Types are
// not checked (the connector is Python). The per-source facts are the spec's
// `ConnectorConfigBySource` schemas (docs/connector-configs.md).
import type { OpenApiDocument } from './validation.js';

interface ConfigSchema {
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  'x-kis-server-required'?: string[];
}

/** A checker of configs by source, from the document's `ConnectorConfigBySource`. */
export function connectorConfigChecker(
  doc: OpenApiDocument,
): (source: string, config: Record<string, unknown>) => string | undefined {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const map = schemas.ConnectorConfigBySource as
    | { properties?: Record<string, { $ref?: string }> }
    | undefined;
  if (map?.properties === undefined) {
    throw new Error('the OpenAPI document has no ConnectorConfigBySource schema');
  }
  const bySource = new Map<string, ConfigSchema>();
  for (const [source, ref] of Object.entries(map.properties)) {
    const name = ref.$ref?.split('/').pop();
    const schema = name === undefined ? undefined : (schemas[name] as ConfigSchema | undefined);
    if (schema !== undefined) bySource.set(source, schema);
  }
  return (source, config) => {
    const schema = bySource.get(source);
    if (schema === undefined) return undefined; // a source without facts: nothing to check
    const known = new Set(Object.keys(schema.properties ?? {}));
    if (schema.additionalProperties === false) {
      const unknown = Object.keys(config).filter((k) => !known.has(k));
      if (unknown.length > 0) {
        return `the ${source} connector got an unexpected keyword argument '${unknown[0]}'`;
      }
    }
    const missing = (schema['x-kis-server-required'] ?? []).filter((k) => !(k in config));
    if (missing.length > 0) {
      const names = missing.map((k) => `'${k}'`).join(' and ');
      return `the ${source} connector is missing ${missing.length} required argument${missing.length > 1 ? 's' : ''}: ${names}`;
    }
    return undefined;
  };
}
