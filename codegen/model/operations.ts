/**
 * The operations: each one's request class and result, its SOAP bodies,
 * actions, headers and declared faults, and its HTTP location, fields and
 * answer. Their messages reach the types that get classes.
 */
import type { WsdlOperationFacts } from '../read/wsdl';
import { qnameKey, type XsdElement } from '../read/xsd';
import { drain } from './classes';
import { elementByKey, type ModelContext } from './context';
import { httpAnswer, httpFields } from './http';
import { bodyOf, messageType } from './messages';
import type { ActionModel, BodyModel, ComplexTypeModel, ElementModel, FaultModel, OperationModel, ResultModel } from './model';
import { elementType } from './type-refs';

export function modelOperations(
  context: ModelContext,
  wsdlOperations: WsdlOperationFacts[],
  warn: (line: string) => void = () => {},
): OperationModel[] {
  const faultClasses = new Map<string, FaultModel>();
  const operations: OperationModel[] = [];
  const reasons: string[] = [];
  for (const op of wsdlOperations) {
    // An operation whose parts the model cannot take (an element no schema declares, …) is skipped with one line.
    // What the operation reached before it failed is forgotten, so that the next one does not fail on it again.
    const pending = [...context.pending];
    const synthesized = context.synthesized.length;
    try {
      operations.push(modelOperation(op));
    } catch (error) {
      context.pending.splice(0, context.pending.length, ...pending.filter((type) => !context.types.has(type)));
      context.synthesized.splice(synthesized);
      const message = (error as Error).message.replace(/^codegen: /, '');
      reasons.push((error as Error).message);
      warn(`codegen: warning: operation ${op.name} is not served: ${message}`);
    }
  }
  if (operations.length === 0 && reasons.length > 0) throw new Error(reasons[0]);
  return operations;

  function modelOperation(op: WsdlOperationFacts): OperationModel {
    const input = bodyOf(context, op, 'input');
    const output = bodyOf(context, op, 'output');
    const faults = op.faults.map((fault): FaultModel => {
      const key = qnameKey(fault.element);
      const known = faultClasses.get(key);
      if (known) return known;
      const element = fault.type
        ? typedFaultElement(context, fault, op.name)
        : elementByKey(context, fault.element, `fault ${fault.name} of ${op.name}`);
      const base = fault.type ? fault.name : element.name;
      const model: FaultModel = {
        name: fault.name,
        // A detail element named after a part (Axis 1's `fault`) names no class: the fault's name does.
        className: context.names.claim(`${base.endsWith('Fault') ? base : `${base}Fault`}`),
        element: { name: element.name, namespace: element.namespace },
        type: elementType(context, element),
      };
      faultClasses.set(key, model);
      return model;
    });
    drain(context);
    let request: ComplexTypeModel;
    let result: ResultModel | undefined;
    if (input) {
      request = input.body.type;
      result = output ? resultOf(output.body.type) : undefined;
    } else {
      // No SOAP port: the request is the HTTP input parts, the result the HTTP answer's element.
      request = messageType(context, `${op.name}Input`, op.http?.inputParts ?? [], op.name, true);
      const answer = op.http?.outputElement ? elementByKey(context, op.http.outputElement, `the HTTP answer of ${op.name}`) : undefined;
      result = answer
        ? {
            type: elementType(context, answer),
            mayBeAbsent: answer.nillable,
            tsType: elementType(context, answer).tsType + (answer.nillable ? ' | undefined' : ''),
          }
        : undefined;
    }
    drain(context);
    const model: OperationModel = {
      name: op.name,
      void: result === undefined,
      oneWay: input !== undefined && output === undefined,
      documentation: op.documentation,
      request: { type: request },
      result,
      soap: input
        ? {
            style: op.style,
            actions: Object.fromEntries(Object.entries(op.soapActions).map(([v, action]) => [v, actionOf(action!, context.tns)])),
            input: input.body,
            ...(output ? { output: output.body } : {}),
            headers: [...input.headers, ...(output?.headers ?? [])],
            faults,
          }
        : undefined,
      http: undefined,
    };
    if (op.http) {
      // The HTTP side HTTP GET and POST cannot carry is not served; the SOAP side is.
      try {
        if (op.http.xmlBody) {
          xmlBodyLikeSoap(op, model);
          model.http = { location: op.http.location, segment: op.http.segment, fields: [], answer: undefined, xmlBody: op.http.xmlBody };
          return model;
        }
        const fields = httpFields(
          op,
          op.http.inputParts.map((p) => p.name),
          request,
        );
        const answer = op.http.outputElement ? toElementModel(context, elementByKey(context, op.http.outputElement, op.name)) : undefined;
        model.http = { location: op.http.location, segment: op.http.segment, fields, answer: httpAnswer(op, answer, result) };
      } catch (error) {
        if (!model.soap) throw error;
        warn(
          `codegen: warning: operation ${op.name} over HTTP GET and POST is not served: ${(error as Error).message.replace(/^codegen: /, '')}`,
        );
      }
    }
    return model;
  }
}

/**
 * An XML body is the SOAP body without its envelope: the SOAP side's request element, and its answer's element
 * (Axis2 binds the same message to both), so one decoder and one encoder serve both.
 */
function xmlBodyLikeSoap(op: WsdlOperationFacts, model: OperationModel): void {
  const soap = model.soap;
  const http = op.http!;
  const same = (a: { namespace: string; name: string } | undefined, b: { namespace: string; name: string } | undefined) =>
    a?.namespace === b?.namespace && a?.name === b?.name;
  const empty = (body: BodyModel | undefined) => body?.style === 'parts' && body.type.fields.length === 0;
  const requestElement = http.inputParts.length === 1 ? http.inputParts[0].element : undefined;
  if (!soap)
    throw new Error(`codegen: ${op.name}: an XML request body is served beside a SOAP port of the same elements, and there is none`);
  // No part: an empty body, as the SOAP body is.
  const request =
    http.inputParts.length === 0 ? empty(soap.input) : soap.input.style === 'element' && same(soap.input.element, requestElement);
  if (!request) throw new Error(`codegen: ${op.name}: the XML request body must be the SOAP request's element`);
  const answer = soap.output?.style === 'element' ? soap.output.element : undefined;
  if (!same(answer, http.outputElement) || (soap.output && !answer && !empty(soap.output))) {
    throw new Error(`codegen: ${op.name}: the HTTP answer must be the SOAP answer's element`);
  }
}

export function toElementModel(context: ModelContext, element: XsdElement): ElementModel {
  const type = elementType(context, element);
  const value = element.default ?? element.fixed;
  const simple = type.kind === 'primitive' || type.kind === 'enum' || type.kind === 'list';
  return {
    name: element.name,
    namespace: element.namespace,
    type,
    nillable: element.nillable,
    ...(element.abstract ? { abstract: true } : {}),
    ...(value !== undefined && simple ? { default: value } : {}),
  };
}

/** What an operation answers: the output's one member, or the whole output class; nothing for an empty output. */
function resultOf(output: ComplexTypeModel): ResultModel | undefined {
  if (output.fields.length === 0 && output.attributes.length === 0 && !output.text) return undefined;
  const [only] = output.fields;
  if (output.fields.length === 1 && output.attributes.length === 0 && !output.text && only.xmlName !== '') {
    const mayBeAbsent = only.minOccurs === 0 && only.maxOccurs === 1;
    return { field: only.name, type: only.type, mayBeAbsent, tsType: only.tsType + (mayBeAbsent ? ' | undefined' : '') };
  }
  return { type: { kind: 'complex', typeName: output.name, tsType: output.name }, mayBeAbsent: false, tsType: output.name };
}

/** The SOAPAction as the model keeps it: after the target namespace when it starts with it, else as written. */
function actionOf(action: string, namespace: string): ActionModel {
  return action.startsWith(namespace) && action.length > namespace.length && namespace !== ''
    ? { suffix: action.slice(namespace.length) }
    : { literal: action };
}

/**
 * The detail element of a fault whose part names a type (Axis 1's rpc/literal faults): named after the part, of the
 * part's type, declared by the served schemas; a global element of that name and namespace the schemas declare
 * already is taken when it is of that type, and refused when it is of another.
 */
function typedFaultElement(context: ModelContext, fault: WsdlOperationFacts['faults'][number], operation: string): XsdElement {
  const type = fault.type!;
  const declared = context.xsd.elements.get(qnameKey(fault.element));
  if (declared) {
    if (declared.type.kind === 'named' && qnameKey(declared.type.qname) === qnameKey(type)) return declared;
    throw new Error(
      `codegen: fault ${fault.name} of ${operation}: its detail element ${fault.element.name} (named after its part, which names type ${type.name}) is declared by a schema of another type`,
    );
  }
  return {
    name: fault.element.name,
    namespace: fault.element.namespace,
    type: { kind: 'named', qname: type },
    nillable: false,
    abstract: false,
    at: `fault ${fault.name} of ${operation}`,
  };
}
