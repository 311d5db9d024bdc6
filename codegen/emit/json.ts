import {
  type ComplexTypeModel,
  complexTypeOf,
  type ContractModel,
  type FieldModel,
  type OperationModel,
  resultFieldOf,
  type Segment,
  type TypeRef,
} from '../model/model';
import { type EmitFile, emitFile } from './file';
import { GENERATED, type Output, TYPES } from './header';
import { render, renderFile } from './render';
import { doubleQuote } from './ts';
import { typeText } from './types';
import { enumValues, valueCode } from './values';

/** An ASMX service class is `Service.Service` (TempConvert.TempConvert): the service name is its namespace too. */
const scriptNamespace = (model: ContractModel) => model.service;

/** The JSON members of a call are the request element's children, as .NET names its method parameters. */
const parametersOf = (op: OperationModel): string[] => op.request.type.fields.map((f) => f.xmlName);

/** Complex result types, as the proxy registers them (`TempConvert.Conversion`). */
function complexTypesOf(model: ContractModel, type: TypeRef, into: Set<string>): Set<string> {
  if (type.kind !== 'complex') return into;
  // An ArrayOfX is a JSON array: no type of its own to register.
  if (into.has(type.typeName)) return into;
  const complex = complexTypeOf(model, type);
  if (!complex.arrayWrapper) into.add(type.typeName);
  for (const field of complex.fields) complexTypesOf(model, field.type, into);
  return into;
}

/**
 * A TypeScript expression writing `expr` as JSON, as ASP.NET AJAX does: an
 * object starts with its `__type`, members in sequence order (attributes
 * after them), an absent or null value is null, an ArrayOfX an array, XML
 * kept as XML a string. A complex type is written by a function of its own
 * (`writers`), which a type that holds itself calls again.
 */
function jsonExpression(file: Json, type: TypeRef, expr: string, optional: boolean, writers: Map<string, string>): string {
  const { model, imports } = file;
  let encoded: string;
  if (type.kind === 'any') encoded = `${imports.runtime('jsonString')}(${expr})`;
  else if (type.kind === 'list')
    encoded = `('[' + ${expr}.map((item) => ${valueCode(imports, type.item, model).toJson('item')}).join(',') + ']')`;
  else if (type.kind !== 'complex') {
    encoded = valueCode(imports, type, model).toJson(expr);
  } else {
    encoded = `${writerOf(file, complexTypeOf(model, type), writers)}(${expr})`;
  }
  return optional ? `(${expr} === undefined ? 'null' : ${encoded})` : encoded;
}

/** The name of the function writing a complex type (made once): a derived value is written by its own type's. */
function writerOf(file: Json, complex: ComplexTypeModel, writers: Map<string, string>): string {
  const { model, imports } = file;
  const name = `json${complex.name}`;
  if (writers.has(name)) return name;
  writers.set(name, ''); // claimed first: the members may name this type again
  let body: string;
  if (complex.arrayWrapper) body = `return ${jsonField(file, complex.fields[0], `v.${complex.fields[0].name}`, true, writers)};`;
  else {
    const head = doubleQuote(`{"__type":${JSON.stringify(`${scriptNamespace(model)}.${complex.xmlName}`)}`);
    const members = [
      ...(complex.text ? [`${doubleQuote(',"value":')} + ${jsonExpression(file, complex.text, 'v.value', false, writers)}`] : []),
      ...complex.fields.map((f) => `${doubleQuote(`,${JSON.stringify(f.name)}:`)} + ${jsonField(file, f, `v.${f.name}`, true, writers)}`),
      ...complex.attributes.map(
        (a) => `${doubleQuote(`,${JSON.stringify(a.name)}:`)} + ${jsonExpression(file, a.type, `v.${a.name}`, true, writers)}`,
      ),
    ];
    body = `return ${[head, ...members, `'}'`].join(' + ')};`;
  }
  // A value of a derived type (xsi:type) is written as its own type, __type and all; the most derived first.
  const depth = (t: ComplexTypeModel): number => (t.base ? 1 + depth(model.types.find((x) => x.name === t.base)!) : 0);
  // An abstract derived type has no instances of its own: its derived ones are in the list.
  const union = complex.union;
  const value = union ? 'value' : 'v';
  const derived = complex.derived
    .map((d) => model.types.find((t) => t.name === d)!)
    .filter((d) => !d.abstract)
    .sort((a, b) => depth(b) - depth(a))
    .map((d) => `if (${value} instanceof ${imports.local(TYPES, d.name)}) return ${writerOf(file, d, writers)}(${value});`);
  // A field of a type with derived types holds the union of their classes (a restriction's class is no subtype of its
  // base's, so TypeScript cannot narrow to it): the writer takes the union, and what no derived class took is the
  // type's own class.
  writers.set(
    name,
    [
      `function ${name}(${value}: ${typeText(file, { kind: 'complex', typeName: complex.name, tsType: union ?? complex.name })}): string {`,
      ...derived.map((l) => `  ${l}`),
      ...(union ? [`  const v = value as unknown as ${imports.local(TYPES, complex.name, 'type')};`] : []),
      `  ${body}`,
      '}',
    ].join('\n'),
  );
  return name;
}

/** A member's value: null when null (nillable), an array of its items when repeated. */
function jsonField(file: Json, field: FieldModel, expr: string, optional: boolean, writers: Map<string, string>): string {
  const item = (x: string) =>
    field.nillable
      ? `(${x} === null ? 'null' : ${jsonExpression(file, field.type, x, false, writers)})`
      : jsonExpression(file, field.type, x, false, writers);
  const repeated = field.maxOccurs === 'unbounded' || field.maxOccurs > 1;
  const encoded = repeated ? `('[' + ${expr}.map((item) => ${item('item')}).join(',') + ']')` : item(expr);
  return optional ? `(${expr} === undefined ? 'null' : ${encoded})` : encoded;
}

/** generated/json.ts: the parameters and the answer encoder of each operation for the JSON variant. */
export function emitJson(model: ContractModel, output: Output = GENERATED): string {
  const file = emitFile(model);
  const { imports } = file;
  const writers = new Map<string, string>();
  const operations = model.operations.map((op) => ({
    name: op.name,
    parameters: parametersOf(op),
    // A void method's answer is {"d":null}.
    // A result that is one member of the answer is written as that member is: an array when it repeats, null when nil.
    encodeResult: !op.result
      ? "'null'"
      : resultFieldOf(op)
        ? jsonField(file, resultFieldOf(op)!, 'result', op.result.mayBeAbsent, writers)
        : jsonExpression(file, op.result.type, 'result', op.result.mayBeAbsent, writers),
  }));
  const classes = model.types.map((t) => t.name).filter((name) => imports.usesLocal(TYPES, name));
  const asValue = (name: string) => imports.localUse(TYPES, name) === 'value';
  const view = {
    header: output.header,
    scriptNamespace: scriptNamespace(model),
    operations,
    functions: [...writers.values()],
    enumImports: [
      ...model.enums.map((e) => enumValues(e.name)).filter((name) => imports.usesLocal(TYPES, name)),
      ...classes.filter((c) => !asValue(c)).map((c) => `type ${c}`),
    ],
    classImports: classes.filter(asValue),
  };
  return renderFile('json.ts.hbs', view, imports, output.runtime);
}

/** What json.ts's writers are written into: the file, of a contract. */
type Json = EmitFile<ContractModel>;

const PATH_HOLE = '\u0000path\u0000';

/**
 * The JavaScript proxy ASP.NET AJAX serves at {endpoint}/js, with a hole for
 * the endpoint's path (a JavaScript string literal, filled at run time).
 */
export function scriptProxySegments(model: ContractModel): Segment[] {
  const namespace = scriptNamespace(model);
  const resultTypes = new Set<string>();
  for (const op of model.operations) if (op.result) complexTypesOf(model, op.result.type, resultTypes);
  const text = render('script-proxy.js.hbs', {
    namespace,
    class: `${namespace}.${model.service}`,
    path: PATH_HOLE,
    operations: model.operations.map((op) => ({ name: op.name, parameters: parametersOf(op) })),
    resultTypes: [...resultTypes].map((t) => `${namespace}.${t}`),
  });
  const [before, after, ...rest] = text.split(PATH_HOLE);
  if (after === undefined || rest.length) throw new Error('codegen: json: the proxy template must hold the path once');
  return [{ text: before }, { hole: 'address' }, { text: after }];
}
