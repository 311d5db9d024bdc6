import { complexTypeOf, type ContractModel, type OperationModel, type Segment, type TypeRef } from '../model';
import { GENERATED_HEADER } from './header';
import { render } from './render';

/** The original's service class is `AuthenticatorAPI.AuthenticatorAPI`: the service name is its namespace too. */
const scriptNamespace = (model: ContractModel) => model.service;

/** The JSON members of a call are the request element's children, as .NET names its method parameters. */
const parametersOf = (op: OperationModel): string[] => op.request.type.fields.map((f) => f.name);

/** Complex result types, as the proxy registers them (`AuthenticatorAPI.PairingInfo`). */
function complexTypesOf(model: ContractModel, type: TypeRef, into: Set<string>): Set<string> {
  if (type.kind !== 'complex') return into;
  into.add(type.typeName);
  for (const field of complexTypeOf(model, type).fields) complexTypesOf(model, field.type, into);
  return into;
}

/**
 * A TypeScript expression writing `expr` as JSON, as ASP.NET AJAX does: an
 * object starts with its `__type`, members in sequence order, an absent
 * value is null.
 */
function jsonExpression(model: ContractModel, type: TypeRef, expr: string, optional: boolean): string {
  let encoded: string;
  if (type.kind === 'primitive') {
    encoded = type.primitive === 'boolean' ? `(${expr} ? 'true' : 'false')` : `jsonString(${expr})`;
  } else {
    const complex = complexTypeOf(model, type);
    const head = JSON.stringify(`{"__type":${JSON.stringify(`${scriptNamespace(model)}.${complex.name}`)}`);
    const members = complex.fields.map(
      (f) => `${JSON.stringify(`,${JSON.stringify(f.name)}:`)} + ${jsonExpression(model, f.type, `${expr}.${f.name}`, true)}`,
    );
    encoded = `(${[head, ...members, `'}'`].join(' + ')})`;
  }
  return optional ? `(${expr} === undefined ? 'null' : ${encoded})` : encoded;
}

/** generated/json.ts: the parameters and the answer encoder of each operation for the JSON variant. */
export function emitJson(model: ContractModel): string {
  return render('json.ts.hbs', {
    header: GENERATED_HEADER,
    scriptNamespace: scriptNamespace(model),
    operations: model.operations.map((op) => ({
      name: op.name,
      parameters: parametersOf(op),
      encodeResult: jsonExpression(model, op.result.type, 'result', op.result.mayBeAbsent),
    })),
  });
}

const PATH_HOLE = '\u0000path\u0000';

/**
 * The JavaScript proxy ASP.NET AJAX serves at /api.asmx/js, with a hole for
 * the endpoint's path (a JavaScript string literal, filled at run time).
 */
export function scriptProxySegments(model: ContractModel): Segment[] {
  const namespace = scriptNamespace(model);
  const resultTypes = new Set<string>();
  for (const op of model.operations) complexTypesOf(model, op.result.type, resultTypes);
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
