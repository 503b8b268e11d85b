// A figure beside its target and whether this run met it: the shape of every entry of `targets`
// in bench/results/*.json, so that a reader sees which targets a run missed without re-deriving it.

/**
 * `{ value, target, met }`. `target` is one bound as text (`'>= 0.8'`, `'<= 1.5'`, `'< 150'`,
 * `'= 0'`); `met` is worked out from it unless given (a target that is not one bound).
 */
export function judged(value, target, met = meets(value, target)) {
  return { value, target, met };
}

/** `met` or `missed`, for the printed lines. */
export const verdict = (figure) => (figure.met ? 'met' : 'missed');

/** `target ≥ 0.8, met`, for the printed lines. */
export const said = (figure) =>
  `target ${figure.target.replace('>=', '≥').replace('<=', '≤')}, ${verdict(figure)}`;

function meets(value, target) {
  const m = /^(>=|<=|<|>|=)\s*(-?\d+(?:\.\d+)?)$/.exec(target.trim());
  // a mistyped target must not pass silently as missed
  if (!m) throw new Error(`targets: cannot read the bound ${JSON.stringify(target)}`);
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const bound = Number(m[2]);
  switch (m[1]) {
    case '>=':
      return value >= bound;
    case '<=':
      return value <= bound;
    case '<':
      return value < bound;
    case '>':
      return value > bound;
    default:
      return value === bound;
  }
}
