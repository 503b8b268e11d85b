// Python's str() of JSON values, as deployed servers turn metadata values into text. Expected
// values are what CPython 3 prints for the same value read with json.loads.
import { describe, expect, it } from 'vitest';
import { pyStr } from '../src/python.js';

describe('pyStr', () => {
  it.each([
    ['text', 'text'],
    [1, '1'],
    [-42, '-42'],
    [2.5, '2.5'],
    [-0.5, '-0.5'],
    [0.1, '0.1'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1234567890123.5, '1234567890123.5'],
    [1.5e-7, '1.5e-07'],
    [true, 'True'],
    [false, 'False'],
    [null, 'None'],
    [[1, 'a', null], "[1, 'a', None]"],
    [{ a: [1, true], b: { c: 'd' } }, "{'a': [1, True], 'b': {'c': 'd'}}"],
    [["it's"], '["it\'s"]'],
    [['a"b'], "['a\"b']"],
    [['a\'b"c'], "['a\\'b\"c']"],
    [['line\nbreak\ttab\\'], "['line\\nbreak\\ttab\\\\']"],
    [['é 日本'], "['é 日本']"],
    [['\u0000\u007f'], "['\\x00\\x7f']"],
    [['\u200b'], "['\\u200b']"],
  ] as const)('str(%j) is %j', (value, expected) => {
    expect(pyStr(value)).toBe(expected);
  });
});
