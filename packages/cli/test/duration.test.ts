import { describe, expect, it } from 'vitest';
import { parseDuration } from '../src/internal/duration.js';

describe('parseDuration (--retry-for, --max-outage)', () => {
  it('reads durations with units, alone or combined', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('10min')).toBe(600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration(' 2H ')).toBe(7_200_000);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('0s')).toBe(0);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '10', '-5m', '5 min', 'soon', '1d', 'm', '1h 30m', '1e3s']) {
      expect(parseDuration(bad), bad).toBeUndefined();
    }
  });
});
