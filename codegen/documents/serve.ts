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
      .concat(typedPartElements(facts, model)),
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
 * The elements of the served operations that are named after a part naming a type, each once, where no schema
 * declares them: the details of faults (Axis 1's rpc/literal faults) and the blocks of encoded headers.
 */
function typedPartElements(facts: ContractFacts, model: ServiceModel): RpcWrapper[] {
  const served = new Set(model.operations.map((op) => op.name));
  const declared = new Map<string, RpcWrapper>();
  for (const op of facts.wsdl.operations) {
    if (!served.has(op.name)) continue;
    const headers = [...(op.input?.headers ?? []), ...(op.output?.headers ?? [])].filter((part) => part.encoded);
    const named = [...op.faults, ...headers.map((part) => ({ element: part.element!, type: part.type }))];
    for (const { element, type } of named) {
      const key = qnameKey(element);
      if (!type || facts.xsd.elements.has(key) || declared.has(key)) continue;
      declared.set(key, { name: element.name, namespace: element.namespace, parts: [], type });
    }
  }
  return [...declared.values()];
}
