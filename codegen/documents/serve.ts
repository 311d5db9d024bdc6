/**
 * The documents stage, after the model: what read/ parsed (the WSDLs, every schema), less what the model did not
 * keep (ports, operations), serialised once as the service serves it: the WSDL with every schema inline, the WSDLs it
 * imports, each namespace's schema document, the request elements' small schemas. It frees the documents read.
 */
import type { ContractFacts } from '../read/contract';
import type { ServedDocuments, ServiceModel } from '../model/model';
import { type RpcWrapper, servedSchemas } from './schemas';
import { qnameKey } from '../read/xsd';
import { servedWsdls } from './wsdl';

export function serveDocuments(facts: ContractFacts, model: ServiceModel): ServedDocuments {
  const { wsdl, documents } = facts;
  const operations = model.operations.map((op) => op.name);
  const everything = wsdl.allPorts === wsdl.ports.length && wsdl.allOperations === operations.length;
  // The request elements read/ found as an operation's one body part, of those the model chose.
  const oneElement = new Set(
    wsdl.operations.flatMap((op) => (op.input?.body.length === 1 && op.input.body[0].element ? [op.input.body[0].element.name] : [])),
  );
  const requestElements = Object.fromEntries(Object.entries(model.requestElements).filter(([, element]) => oneElement.has(element)));
  const { schemas, requestSchemas } = servedSchemas({
    schemas: documents.schemas,
    targetNamespace: wsdl.targetNamespace,
    rpcWrappers: wsdl.operations
      .flatMap((op) =>
        op.style !== 'rpc'
          ? []
          : [
              { name: op.name, namespace: op.input!.namespace!, parts: op.input!.body },
              ...(op.output ? [{ name: `${op.name}Response`, namespace: op.output.namespace!, parts: op.output.body }] : []),
            ],
      )
      .concat(typedFaultElements(facts, model), encodedHeaderElements(facts, model)),
    requestElements,
    soapEncoding: wsdl.operations.some((op) => op.input?.encoded || op.output?.encoded),
  });
  const served = servedWsdls({
    wsdls: documents.wsdls.map((d) => d.doc),
    importLocations: documents.wsdls.slice(1).map((d) => d.location!),
    schemas: documents.schemas,
    endpointPath: wsdl.ports[0]?.path ?? '',
    ...(everything
      ? {}
      : {
          kept: {
            services: wsdl.services.map((s) => ({
              name: s.name,
              ports: s.ports.filter((name) => model.ports.some((p) => p.name === name)),
            })),
            // By the WSDL's names (an operation named by its port type too has its WSDL name there).
            operations: wsdl.operations.filter((op) => operations.includes(op.name)).map((op) => op.wsdlName ?? op.name),
          },
        }),
  });
  return { ...served, schema: schemas[0]?.text ?? '', schemas, requestSchemas };
}

/**
 * The detail elements of the served operations' faults whose part names a type (Axis 1's rpc/literal faults), each
 * once: those no schema declares.
 */
function typedFaultElements(facts: ContractFacts, model: ServiceModel): RpcWrapper[] {
  const served = new Set(model.operations.map((op) => op.name));
  const declared = new Map<string, RpcWrapper>();
  for (const op of facts.wsdl.operations) {
    if (!served.has(op.name)) continue;
    for (const fault of op.faults) {
      const key = qnameKey(fault.element);
      if (!fault.type || facts.xsd.elements.has(key) || declared.has(key)) continue;
      declared.set(key, { name: fault.element.name, namespace: fault.element.namespace, parts: [], type: fault.type });
    }
  }
  return [...declared.values()];
}

/**
 * The blocks of the served operations' encoded headers whose part names a type, each once: accessors named by the
 * part, which no schema declares.
 */
function encodedHeaderElements(facts: ContractFacts, model: ServiceModel): RpcWrapper[] {
  const served = new Set(model.operations.map((op) => op.name));
  const declared = new Map<string, RpcWrapper>();
  for (const op of facts.wsdl.operations) {
    if (!served.has(op.name)) continue;
    for (const part of [...(op.input?.headers ?? []), ...(op.output?.headers ?? [])]) {
      if (!part.encoded || !part.type) continue;
      const key = qnameKey(part.element!);
      if (facts.xsd.elements.has(key) || declared.has(key)) continue;
      declared.set(key, { name: part.element!.name, namespace: part.element!.namespace, parts: [], type: part.type });
    }
  }
  return [...declared.values()];
}
