/**
 * The client door: the typed client's transport, what generated/client.ts
 * imports beside the codec door (src/runtime/codec.ts): the exchange of a
 * call over each variant, its faults, the readers of a JSON answer, and the
 * schemas it validates answers with. A team's project imports it by name
 * (`contract-runtime/client`, the runtime package's `exports`).
 */
export type { HeaderRoute } from '../definition';
export type { XsdValidator } from '../xml/xml-engine';
export { compileSchemaSet } from '../xml/xml-schema';
export {
  fromJsonArray,
  fromJsonBigInteger,
  fromJsonBoolean,
  fromJsonBytes,
  fromJsonDate,
  fromJsonDecimal,
  fromJsonEnum,
  fromJsonFloat,
  fromJsonInteger,
  fromJsonLexical,
  fromJsonObject,
  fromJsonString,
} from '../xml/xsd-json';
export { DEFAULT_TIMEOUT_MS } from './defaults';
export { CLIENT_VARIANTS, type ClientVariant, type Decode, exchange, type Fault, isNil, type OperationSpec } from './exchange';
export { exchangeJson, jsonBoolean, JsonShapeError, jsonStringMembers, jsonText } from './json-exchange';

/**
 * The names above, for codegen (codegen/emit/ts.ts): what a generated client may import from this door, each type
 * as a type, and what no contract class may be named. test/codegen/emit/doors.test.ts holds it to the exports.
 */
export const CLIENT_EXPORTS = {
  values: [
    'compileSchemaSet',
    'fromJsonArray',
    'fromJsonBigInteger',
    'fromJsonBoolean',
    'fromJsonBytes',
    'fromJsonDate',
    'fromJsonDecimal',
    'fromJsonEnum',
    'fromJsonFloat',
    'fromJsonInteger',
    'fromJsonLexical',
    'fromJsonObject',
    'fromJsonString',
    'DEFAULT_TIMEOUT_MS',
    'CLIENT_VARIANTS',
    'exchange',
    'isNil',
    'exchangeJson',
    'jsonBoolean',
    'JsonShapeError',
    'jsonStringMembers',
    'jsonText',
  ],
  types: ['HeaderRoute', 'XsdValidator', 'ClientVariant', 'Decode', 'Fault', 'OperationSpec'],
} as const;
