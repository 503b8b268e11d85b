/** commander argument parsers shared by the commands: integers, repeatable flags, durations. */
import { InvalidArgumentError } from 'commander';
import { parseDuration } from './duration.js';

/** An integer from `min` to `max`; commander names the flag in the error. */
export function intArg(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected an integer ≥ ${min}.`
          : `expected an integer from ${min} to ${max}.`,
      );
    }
    return Number(value);
  };
}

/** A repeatable flag (`--include a --include b`): every value, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A duration flag (`--retry-for 10m`), in milliseconds. */
export function durationArg(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) {
    throw new InvalidArgumentError('expected a duration such as 90s, 10m or 1h30m.');
  }
  return ms;
}
