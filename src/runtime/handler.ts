/**
 * The handler's door: what a module that answers an operation imports, and
 * nothing else. The call it answers and the type of its function, the
 * errors it throws, and the convention that finds and binds the handler
 * modules of a service (handler-modules.ts: each operation's module, its
 * file and export, as codegen's skeleton writes them). A handler knows
 * nothing of XML, HTTP or the web framework: the runtime's bindings call it.
 */

// The call a handler answers, and the handlers' types, typed by the contract's operations.
export type {
  AddressingHeaders,
  AddressingVersion,
  Call,
  CallVariant,
  Handlers,
  HeadersOf,
  OperationHandler,
  OperationName,
  OperationsOf,
  SoapHeaders,
} from './definition';

// What a handler throws: a client's mistake or the service's failure, or a fault its operation declares.
export { clientError, DeclaredFault, type ErrorKind, ServiceError } from './errors';

// Handler modules found by convention, one per operation, and bound to what a service makes them from.
export { bindHandlers, type EveryOperationHandled, type HandlerModule, handlerModules, loadHandlerModules } from './handler-modules';

// Markup a handler writes into a text of its result (an HTML fragment), escaped: HTML, or by a table of its own.
export { escapeEach, escapeHtml } from './escape';
