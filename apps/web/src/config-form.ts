// The "new connector" form's configuration part: the chosen source's fields from the spec's table
// (@kis/spec/connector-fields.json, docs/connector-configs.md) as inputs by kind, required marks,
// defaults, selects, lists, exclusive choices as radio groups, and a JSON view for anything else.
// Errors from the client's check (ConfigValidationError) are shown at the field they name.
import type { ClientValidationIssue } from '@kis/client';
import type {
  ConnectorFieldsTable,
  ConnectorField as Field,
  ConnectorFieldGroup as Group,
  SourceFields as SourceEntry,
} from '@kis/rules';
import table from '@kis/spec/connector-fields.json';
import { element } from './dom.js';

const SOURCES = (table as ConnectorFieldsTable).sources;
const PREFIX = 'connector_specific_config';

const isList = (f: Field) => f.list === true || f.kind.endsWith('[]');

/** One input for a field: its element and how to read its value (undefined: not given). */
interface Control {
  field: Field;
  wrapper: HTMLElement;
  input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  read(): unknown;
  write(value: unknown): void;
}

function linesOf(value: unknown): string {
  return Array.isArray(value)
    ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n')
    : '';
}

function control(field: Field, idPrefix: string): Control {
  const id = `${idPrefix}-${field.name}`;
  const label = element(
    'label',
    { for: id },
    field.label === field.name ? field.name : `${field.label} (${field.name})`,
  );
  if (field.required)
    label.append(element('span', { class: 'required', 'aria-hidden': 'true' }, ' *'));
  const base = field.kind.replace(/\[\]$/, '');
  let input: Control['input'];
  let read: () => unknown;
  let write: (value: unknown) => void;
  if (isList(field)) {
    input = element('textarea', {
      id,
      rows: '2',
      spellcheck: 'false',
      placeholder: 'one per line',
    });
    read = () => {
      const items = input.value
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
      if (base === 'object') return items.map((s) => JSON.parse(s) as unknown);
      if (base === 'integer' || base === 'number') return items.map(Number);
      return items;
    };
    write = (v) => {
      input.value = linesOf(v);
    };
  } else if (base === 'boolean') {
    input = element('input', { id, type: 'checkbox' });
    const box = input as HTMLInputElement;
    read = () => box.checked;
    write = (v) => {
      box.checked = v === true;
    };
  } else if (base === 'enum') {
    input = element('select', { id }, element('option', { value: '' }, '—'));
    input.append(
      ...(field.options ?? []).map((o) => element('option', { value: String(o) }, String(o))),
    );
    read = () => (input.value === '' ? undefined : input.value);
    write = (v) => {
      input.value = v === undefined || v === null ? '' : String(v);
    };
  } else if (base === 'integer' || base === 'number') {
    input = element('input', { id, type: 'number', step: base === 'integer' ? '1' : 'any' });
    read = () => (input.value.trim() === '' ? undefined : Number(input.value));
    write = (v) => {
      input.value = typeof v === 'number' ? String(v) : '';
    };
  } else if (base === 'object') {
    input = element('textarea', { id, rows: '2', spellcheck: 'false', placeholder: 'JSON' });
    read = () => (input.value.trim() === '' ? undefined : (JSON.parse(input.value) as unknown));
    write = (v) => {
      input.value = v === undefined || v === null ? '' : JSON.stringify(v);
    };
  } else {
    input = element('input', { id, type: 'text', autocomplete: 'off', spellcheck: 'false' });
    read = () => (input.value === '' ? undefined : input.value);
    write = (v) => {
      input.value = typeof v === 'string' ? v : '';
    };
  }
  input.dataset.field = field.name;
  if (field.required) input.setAttribute('aria-required', 'true');
  const error = element('span', { class: 'field-error', id: `${id}-error`, role: 'alert' });
  input.setAttribute('aria-describedby', error.id);
  // a message stays until the field is edited
  input.addEventListener('input', () => {
    error.textContent = '';
    input.removeAttribute('aria-invalid');
  });
  const wrapper = element('div', { class: `field config-field kind-${base}` }, label, input, error);
  wrapper.dataset.field = field.name;
  const c = { field, wrapper, input, read, write };
  write(field.default);
  return c;
}

/**
 * The config part of the connector form. `render(source)` shows that source's fields (or only the
 * JSON view for a source the spec has no schema for); `read()` gives the config to send.
 */
export class ConfigForm {
  private controls: Control[] = [];
  private groups: { group: Group; radios: HTMLInputElement[] }[] = [];
  private entry: SourceEntry | undefined;
  private readonly fieldsBox: HTMLElement;

  constructor(
    private readonly container: HTMLElement,
    private readonly jsonView: HTMLDetailsElement,
    private readonly jsonInput: HTMLTextAreaElement,
  ) {
    this.fieldsBox = element('div', { class: 'config-fields' });
    container.prepend(this.fieldsBox);
    // opening the JSON view shows what the form holds; closing it loads the JSON into the form
    jsonView.addEventListener('toggle', () => {
      if (this.entry === undefined) return;
      if (jsonView.open) this.jsonInput.value = JSON.stringify(this.fromForm(), null, 1);
      else this.load(this.jsonFromText() ?? {});
    });
  }

  /** Shows the fields of `source`. */
  render(source: string): void {
    this.entry = SOURCES[source];
    this.controls = [];
    this.groups = [];
    this.fieldsBox.replaceChildren();
    if (this.entry === undefined) {
      this.jsonView.open = true;
      this.fieldsBox.append(
        element(
          'p',
          { class: 'hint' },
          source ? `No field list for “${source}”: give the configuration as JSON.` : '',
        ),
      );
      return;
    }
    this.jsonView.open = false;
    const inGroup = new Set(this.entry.groups.flatMap((g) => g.options.flatMap((o) => o.fields)));
    const prefix = `cfg-${source}`;
    const byName = new Map<string, Control>();
    for (const f of this.entry.fields) {
      if (f.notInInterface) continue;
      const c = control(f, prefix);
      this.controls.push(c);
      byName.set(f.name, c);
    }
    const main = this.controls.filter((c) => !c.field.advanced && !inGroup.has(c.field.name));
    this.fieldsBox.append(...main.map((c) => c.wrapper));
    for (const group of this.entry.groups)
      this.fieldsBox.append(this.groupBox(group, prefix, byName));
    const advanced = this.controls.filter((c) => c.field.advanced && !inGroup.has(c.field.name));
    if (advanced.length > 0) {
      this.fieldsBox.append(
        element(
          'details',
          { class: 'advanced' },
          element('summary', {}, 'Advanced'),
          ...advanced.map((c) => c.wrapper),
        ),
      );
    }
    if (this.entry.fields.length === 0) {
      this.fieldsBox.append(element('p', { class: 'hint' }, 'This source takes no configuration.'));
    }
  }

  private groupBox(group: Group, prefix: string, byName: Map<string, Control>): HTMLElement {
    const radios: HTMLInputElement[] = [];
    const box = element(
      'fieldset',
      { class: 'choice', 'data-group': group.name },
      element('legend', {}, group.label),
    );
    const panels = new Map<string, HTMLElement>();
    for (const option of group.options) {
      const id = `${prefix}-${group.name}-${option.value}`;
      const radio = element('input', {
        type: 'radio',
        name: `${prefix}-${group.name}`,
        id,
        value: option.value,
      });
      radios.push(radio);
      box.append(element('label', { class: 'radio', for: id }, radio, ` ${option.label}`));
      const panel = element('div', { class: 'choice-fields' });
      for (const name of option.fields) {
        const c = byName.get(name);
        if (c) panel.append(c.wrapper);
      }
      panels.set(option.value, panel);
    }
    box.append(...panels.values());
    const show = () => {
      for (const [value, panel] of panels)
        panel.hidden = !radios.find((r) => r.value === value)?.checked;
    };
    for (const r of radios) r.addEventListener('change', show);
    const first = radios.find((r) => r.value === group.default) ?? radios[0];
    if (first) first.checked = true;
    show();
    this.groups.push({ group, radios });
    return box;
  }

  private chosenFields(): Set<string> {
    const chosen = new Set<string>();
    for (const { group, radios } of this.groups) {
      const value = radios.find((r) => r.checked)?.value;
      for (const f of group.options.find((o) => o.value === value)?.fields ?? []) chosen.add(f);
    }
    return chosen;
  }

  private fromForm(): Record<string, unknown> {
    const inGroup = new Set(
      this.groups.flatMap(({ group }) => group.options.flatMap((o) => o.fields)),
    );
    const chosen = this.chosenFields();
    const out: Record<string, unknown> = {};
    for (const c of this.controls) {
      if (inGroup.has(c.field.name) && !chosen.has(c.field.name)) continue;
      let value: unknown;
      try {
        value = c.read();
      } catch (error) {
        throw new FieldError(c.field.name, `not valid JSON (${(error as Error).message})`);
      }
      if (value !== undefined) out[c.field.name] = value;
    }
    return out;
  }

  private jsonFromText(): Record<string, unknown> | undefined {
    try {
      const v = JSON.parse(this.jsonInput.value.trim() || '{}') as unknown;
      return typeof v === 'object' && v !== null && !Array.isArray(v)
        ? (v as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** Fills the form from a config object (fields it does not list stay in the JSON view). */
  private load(config: Record<string, unknown>): void {
    for (const c of this.controls) c.write(config[c.field.name] ?? c.field.default);
    for (const { group, radios } of this.groups) {
      const given = group.options.find((o) =>
        o.fields.some((f) => config[f] !== undefined && config[f] !== ''),
      );
      const radio = radios.find((r) => r.value === (given?.value ?? group.default));
      if (radio) {
        radio.checked = true;
        radio.dispatchEvent(new Event('change'));
      }
    }
  }

  /**
   * The config to send: the JSON view's object when it is open (or the source has no field list),
   * else the form's values. Throws `FieldError` for a field or JSON that cannot be read.
   */
  read(): Record<string, unknown> {
    if (this.entry === undefined || this.jsonView.open) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(this.jsonInput.value.trim() || '{}');
      } catch (error) {
        throw new FieldError('', `not valid JSON (${(error as Error).message})`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new FieldError('', 'expected a JSON object such as {}');
      }
      return parsed as Record<string, unknown>;
    }
    return this.fromForm();
  }

  /** Clears the messages shown at fields. */
  clearIssues(): void {
    for (const el of this.container.querySelectorAll<HTMLElement>('.field-error'))
      el.textContent = '';
    for (const el of this.container.querySelectorAll('[aria-invalid]'))
      el.removeAttribute('aria-invalid');
  }

  /**
   * Shows each issue at its field (`connector_specific_config.X`); returns the issues that have
   * no field in the form, for the status line.
   */
  showIssues(issues: readonly ClientValidationIssue[]): ClientValidationIssue[] {
    const rest: ClientValidationIssue[] = [];
    for (const issue of issues) {
      const name = issue.path.startsWith(`${PREFIX}.`)
        ? issue.path.slice(PREFIX.length + 1).split(/[.[]/)[0]
        : '';
      const c = this.jsonView.open ? undefined : this.controls.find((x) => x.field.name === name);
      if (c === undefined) {
        rest.push(issue);
        continue;
      }
      c.input.setAttribute('aria-invalid', 'true');
      const error = c.wrapper.querySelector('.field-error');
      if (error) error.textContent = issue.message;
    }
    return rest;
  }
}

/** A field (or the JSON view, `field: ''`) whose value cannot be read. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
