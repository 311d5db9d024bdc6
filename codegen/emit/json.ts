import { complexTypeOf, type ContractModel, type FieldModel, type OperationModel, type Segment, type TypeRef } from '../model';
import { GENERATED_HEADER } from './header';
import { render } from './render';
import { firstValue } from './types';
import { helpersUsed, valueCode } from './values';

/** An ASMX service class is `Service.Service` (TempConvert.TempConvert): the service name is its namespace too. */
const scriptNamespace = (model: ContractModel) => model.service;

/** The JSON members of a call are the request element's children, as .NET names its method parameters. */
const parametersOf = (op: OperationModel): string[] => op.request.type.fields.map((f) => f.name);

/** Complex result types, as the proxy registers them (`TempConvert.Conversion`). */
function complexTypesOf(model: ContractModel, type: TypeRef, into: Set<string>): Set<string> {
  if (type.kind !== 'complex') return into;
  // An ArrayOfX is a JSON array: no type of its own to register.
  if (!complexTypeOf(model, type).arrayWrapper) into.add(type.typeName);
  for (const field of complexTypeOf(model, type).fields) complexTypesOf(model, field.type, into);
  return into;
}

/**
 * A TypeScript expression writing `expr` as JSON, as ASP.NET AJAX does: an
 * object starts with its `__type`, members in sequence order (attributes
 * after them), an absent or null value is null, an ArrayOfX an array.
 */
function jsonExpression(model: ContractModel, type: TypeRef, expr: string, optional: boolean): string {
  let encoded: string;
  if (type.kind !== 'complex') {
    encoded = valueCode(type, firstValue(model, type)).toJson(expr);
  } else {
    const complex = complexTypeOf(model, type);
    if (complex.arrayWrapper) encoded = jsonField(model, complex.fields[0], `${expr}.${complex.fields[0].name}`, true);
    else {
      const head = JSON.stringify(`{"__type":${JSON.stringify(`${scriptNamespace(model)}.${complex.name}`)}`);
      const members = [
        ...complex.fields.map(
          (f) => `${JSON.stringify(`,${JSON.stringify(f.name)}:`)} + ${jsonField(model, f, `${expr}.${f.name}`, true)}`,
        ),
        ...complex.attributes.map(
          (a) => `${JSON.stringify(`,${JSON.stringify(a.name)}:`)} + ${jsonExpression(model, a.type, `${expr}.${a.name}`, true)}`,
        ),
      ];
      encoded = `(${[head, ...members, `'}'`].join(' + ')})`;
    }
  }
  return optional ? `(${expr} === undefined ? 'null' : ${encoded})` : encoded;
}

/** A member's value: null when null (nillable), an array of its items when unbounded. */
function jsonField(model: ContractModel, field: FieldModel, expr: string, optional: boolean): string {
  const item = (x: string) =>
    field.nillable
      ? `(${x} === null ? 'null' : ${jsonExpression(model, field.type, x, false)})`
      : jsonExpression(model, field.type, x, false);
  const encoded = field.maxOccurs === 'unbounded' ? `('[' + ${expr}.map((item) => ${item('item')}).join(',') + ']')` : item(expr);
  return optional ? `(${expr} === undefined ? 'null' : ${encoded})` : encoded;
}

/** generated/json.ts: the parameters and the answer encoder of each operation for the JSON variant. */
export function emitJson(model: ContractModel): string {
  const operations = model.operations.map((op) => ({
    name: op.name,
    parameters: parametersOf(op),
    // A void method's answer is {"d":null}.
    encodeResult: op.result ? jsonExpression(model, op.result.type, 'result', op.result.mayBeAbsent) : "'null'",
  }));
  const code = operations.map((op) => op.encodeResult).join('\n');
  return render('json.ts.hbs', {
    header: GENERATED_HEADER,
    scriptNamespace: scriptNamespace(model),
    operations,
    valueImports: helpersUsed(code, 'xsd-values'),
    jsonImports: helpersUsed(code, 'xsd-json'),
    enumImports: model.enums.map((e) => `${e.name}Values`).filter((name) => code.includes(name)),
  });
}

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
