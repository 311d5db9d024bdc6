/**
 * The values of the XML Schema types generated code reads and writes
 * (src/runtime/xml/xsd-values.ts) and their JSON as ASP.NET AJAX writes it
 * (src/runtime/xml/xsd-json.ts): the lexical spaces, the bounds, and what is refused.
 */
import test from 'ava';
import { DecodeError } from '../../../src/runtime/xml/xml-codec';
import {
  fromJsonBigInteger,
  fromJsonBytes,
  fromJsonDate,
  fromJsonDecimal,
  fromJsonEnum,
  fromJsonInteger,
  fromJsonObject,
  toJsonBytes,
  toJsonDate,
  toJsonDecimal,
  toJsonEnum,
  toJsonFloat,
} from '../../../src/runtime/xml/xsd-json';
import {
  formatXsdBase64Binary,
  formatXsdBigInteger,
  formatXsdDateTime,
  formatXsdFloat,
  formatXsdInteger,
  formatXsdLexical,
  parseXsdBase64Binary,
  parseXsdBigInteger,
  parseXsdDateTime,
  parseXsdEnumeration,
  parseXsdFloat,
  parseXsdInteger,
  parseXsdLexical,
} from '../../../src/runtime/xml/xsd-values';

test("integers are read within their type's bounds, white space collapsed, and nothing else", (t) => {
  t.is(parseXsdInteger(' +42\n', 'int'), 42);
  t.is(parseXsdInteger('-128', 'byte'), -128);
  t.is(parseXsdInteger('4294967295', 'unsignedInt'), 4294967295);
  for (const [text, type] of [
    ['128', 'byte'],
    ['-1', 'unsignedShort'],
    ['65536', 'unsignedShort'],
    ['1.0', 'int'],
    ['1e3', 'int'],
    ['', 'int'],
    ['0x10', 'short'],
  ] as const) {
    t.throws(() => parseXsdInteger(text, type), { instanceOf: DecodeError }, `${text} as ${type}`);
  }
  t.is(formatXsdInteger(-32768, 'short'), '-32768');
  t.throws(() => formatXsdInteger(1.5, 'int'), { instanceOf: RangeError });
  t.throws(() => formatXsdInteger(256, 'unsignedByte'), { instanceOf: RangeError });
});

test('long and unsignedLong are bigints, exact to their last digit', (t) => {
  t.is(parseXsdBigInteger('9223372036854775807', 'long'), 2n ** 63n - 1n);
  t.is(parseXsdBigInteger('18446744073709551615', 'unsignedLong'), 2n ** 64n - 1n);
  t.throws(() => parseXsdBigInteger('9223372036854775808', 'long'), { instanceOf: DecodeError });
  t.throws(() => parseXsdBigInteger('-1', 'unsignedLong'), { instanceOf: DecodeError });
  t.is(formatXsdBigInteger(-(2n ** 63n), 'long'), '-9223372036854775808');
  t.throws(() => formatXsdBigInteger(2n ** 64n, 'unsignedLong'), { instanceOf: RangeError });
});

test("float and double take XML Schema's INF, -INF and NaN; a float is read at single precision", (t) => {
  t.is(parseXsdFloat('INF', 'double'), Number.POSITIVE_INFINITY);
  t.is(parseXsdFloat('-INF', 'float'), Number.NEGATIVE_INFINITY);
  t.true(Number.isNaN(parseXsdFloat('NaN', 'double')));
  t.is(parseXsdFloat('1.5E3', 'double'), 1500);
  t.is(parseXsdFloat('0.1', 'float'), Math.fround(0.1));
  t.not(parseXsdFloat('0.1', 'float'), 0.1);
  t.throws(() => parseXsdFloat('Infinity', 'double'), { instanceOf: DecodeError });
  t.deepEqual(
    [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, -0.5].map((n) => formatXsdFloat(n)),
    ['INF', '-INF', 'NaN', '-0.5'],
  );
  t.is(
    formatXsdFloat(parseXsdFloat('1.0e-2', 'float'), 'float'),
    '0.01',
    'a float is written with the digits it needs at single precision',
  );
  t.is(formatXsdFloat(parseXsdFloat('3.4028235E38', 'float'), 'float'), '3.4028235e+38');
  t.is(formatXsdFloat(parseXsdFloat('1.0e-2', 'float')), '0.009999999776482582', 'as a double, the same number has more digits');
});

test('decimal, date, time, duration and guid keep their lexical form, checked', (t) => {
  t.is(parseXsdLexical(' 12345678901234567890.000001 ', 'decimal'), '12345678901234567890.000001');
  t.is(parseXsdLexical('2026-02-28Z', 'date'), '2026-02-28Z');
  t.is(parseXsdLexical('23:59:59.5+01:00', 'time'), '23:59:59.5+01:00');
  t.is(parseXsdLexical('-P1Y2M3DT4H5M6.7S', 'duration'), '-P1Y2M3DT4H5M6.7S');
  t.is(parseXsdLexical('0F8FAD5B-D9CB-469F-A165-70867728950E', 'guid'), '0F8FAD5B-D9CB-469F-A165-70867728950E');
  for (const [text, type] of [
    ['1e3', 'decimal'],
    ['2026-2-28', 'date'],
    ['24h', 'time'],
    ['P', 'duration'],
    ['PT', 'duration'],
    ['0f8fad5b-d9cb-469f-a165-70867728950', 'guid'],
  ] as const) {
    t.throws(() => parseXsdLexical(text, type), { instanceOf: DecodeError }, `${text} as ${type}`);
  }
  t.throws(() => formatXsdLexical('not a guid', 'guid'), { instanceOf: RangeError });
});

test('dateTime: a Date; with an offset it is that instant, without one it is read as UTC; written as UTC', (t) => {
  t.is(parseXsdDateTime('2026-01-02T03:04:05+02:00').toISOString(), '2026-01-02T01:04:05.000Z');
  t.is(parseXsdDateTime('2026-01-02T03:04:05.1234567').toISOString(), '2026-01-02T03:04:05.123Z');
  t.throws(() => parseXsdDateTime('2026-01-02'), { instanceOf: DecodeError });
  t.throws(() => parseXsdDateTime('2026-13-02T00:00:00Z'), { instanceOf: DecodeError });
  t.is(formatXsdDateTime(new Date(Date.UTC(2026, 0, 2))), '2026-01-02T00:00:00.000Z');
  t.throws(() => formatXsdDateTime(new Date(Number.NaN)), { instanceOf: RangeError });
});

test('base64Binary: bytes, white space inside the text allowed, anything else refused', (t) => {
  t.deepEqual(parseXsdBase64Binary('AP+A\n'), new Uint8Array([0, 255, 128]));
  t.deepEqual(parseXsdBase64Binary(''), new Uint8Array(0));
  t.throws(() => parseXsdBase64Binary('AP+'), { instanceOf: DecodeError });
  t.throws(() => parseXsdBase64Binary('A*=='), { instanceOf: DecodeError });
  t.is(formatXsdBase64Binary(new Uint8Array([104, 105])), 'aGk=');
  t.is(formatXsdBase64Binary(new Uint8Array([0, 1, 2, 3]).subarray(2)), 'AgM=', 'a view writes its own bytes only');
});

test('an enumeration value is one of its values exactly (a string restriction: no white space collapsed)', (t) => {
  const values = ['Red', 'Green'] as const;
  t.is(parseXsdEnumeration('Green', values, 'Color'), 'Green');
  t.throws(() => parseXsdEnumeration(' Green', values, 'Color'), { instanceOf: DecodeError, message: '" Green" is not a value of Color' });
});

test('JSON as ASP.NET AJAX writes it: \\/Date(ms)\\/, bytes as numbers, enumerations by number, decimals as JSON numbers', (t) => {
  t.is(toJsonDate('2023-11-14T22:13:20Z'), '"\\/Date(1700000000000)\\/"');
  t.is(toJsonDate('2023-11-14T23:13:20+01:00'), '"\\/Date(1700000000000)\\/"', 'an offset is moved to UTC');
  t.is(toJsonDate('2023-11-14T22:13:20'), '"\\/Date(1700000000000)\\/"', 'no offset: read as UTC');
  t.is(JSON.parse(toJsonDate('1969-12-31T23:59:59.999Z')), '/Date(-1)/');
  t.is(toJsonBytes(new Uint8Array([1, 2, 255])), '[1,2,255]');
  t.is(toJsonEnum('Green', ['Red', 'Green']), '1');
  t.throws(() => toJsonEnum('Blue', ['Red', 'Green']), { instanceOf: RangeError });
  t.deepEqual(['1.', '.5', '+007.25', '-0'].map(toJsonDecimal), ['1', '0.5', '7.25', '-0']);
  for (const text of ['1.', '.5', '+007.25']) t.notThrows(() => JSON.parse(toJsonDecimal(text)));
  t.is(toJsonFloat(Number.POSITIVE_INFINITY), 'null');
});

test('JSON readers take what ASP.NET AJAX writes and refuse what does not fit', (t) => {
  t.is(fromJsonDate('/Date(1700000000000)/'), '2023-11-14T22:13:20.000Z');
  t.is(fromJsonDate('/Date(1700000000000+0100)/'), '2023-11-14T22:13:20.000Z', "the writer's zone is not part of the instant");
  t.throws(() => fromJsonDate('2026-01-02T00:00:00Z'), { instanceOf: DecodeError });
  t.is(fromJsonInteger(7, 'byte'), 7);
  t.throws(() => fromJsonInteger('7', 'int'), { instanceOf: DecodeError });
  t.throws(() => fromJsonInteger(300, 'unsignedByte'), { instanceOf: DecodeError });
  t.is(fromJsonBigInteger('18446744073709551615', 'unsignedLong'), 2n ** 64n - 1n);
  t.throws(() => fromJsonBigInteger(2 ** 60, 'long'), { message: /beyond 2\^53 must come as a string/ });
  t.is(fromJsonDecimal(1.25), '1.25');
  t.deepEqual(fromJsonBytes([0, 255]), new Uint8Array([0, 255]));
  t.throws(() => fromJsonBytes([256]), { instanceOf: DecodeError });
  t.is(fromJsonEnum(1, ['Red', 'Green'], 'Color'), 'Green');
  t.is(fromJsonEnum('Red', ['Red', 'Green'], 'Color'), 'Red');
  t.throws(() => fromJsonEnum(2, ['Red', 'Green'], 'Color'), { instanceOf: DecodeError });
  t.deepEqual(fromJsonObject({ __type: 'S.T', a: 1 }, 'S.T'), { __type: 'S.T', a: 1 });
  t.deepEqual(fromJsonObject({ a: 1 }, 'S.T'), { a: 1 });
  t.throws(() => fromJsonObject({ __type: 'S.Other' }, 'S.T'), { message: 'expected S.T, not S.Other' });
  t.throws(() => fromJsonObject([], 'S.T'), { instanceOf: DecodeError });
});
