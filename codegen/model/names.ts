/**
 * Names as TypeScript allows them: a class or enumeration per schema type,
 * each claimed once with its companions (`XFields`, `XValues`), and members
 * made identifiers, unique in their class.
 */
import { CLIENT_EXPORTS } from 'contract-runtime/client';
import { CODEC_EXPORTS } from 'contract-runtime/codec';
import { type AttributeModel, type FieldModel, OTHER_ATTRIBUTES } from './model';

/** Names generated code uses beside the contract's classes: a contract type of one of these names is renamed. */
const RESERVED_TYPE_NAMES = new Set(
  (
    'Error TypeError RangeError Date Uint8Array Partial Promise Object Array String Number Boolean Map Set Record JSON Math Symbol ' +
    'BigInt RegExp Function Buffer URL Response Request Headers AbortSignal XmlElement DecodeError XmlFragment Readonly Required ' +
    'Exclude Extract Pick Omit Iterable Infinity NaN undefined any unknown never object string number boolean bigint symbol void'
  ).split(' '),
);
/**
 * What generated files import from the runtime's doors made for them (src/runtime/codec.ts, src/runtime/client/index.ts):
 * their export lists, read as they are, so that a name a door gains is reserved with it.
 */
const DOOR_NAMES: readonly string[] = [CODEC_EXPORTS, CLIENT_EXPORTS].flatMap((door) => [...door.values, ...door.types]);
/**
 * What generated files import from the runtime (its doors' exports, DOOR_NAMES, and the rest of its front door,
 * src/runtime/index.ts, which a team's code imports beside them) and declare at their top level (generated/*.ts): a
 * class or enumeration of one of these names would clash with it, in whatever file names both.
 * test/codegen/emit/collisions.test.ts holds the list to the front door's exports and to what the generated files declare.
 */
export const GENERATED_FILE_NAMES: ReadonlySet<string> = new Set([
  ...DOOR_NAMES,
  ...// The front door's exports beside the doors': the handler's door, the host's door and the runtime's other parts.
  (
    'Call CallVariant HeadersOf OperationName OperationsOf OperationTypes RequestMessage SoapHeaders clientError ErrorKind ' +
    'ServiceError bindHandlers EveryOperationHandled loadHandlerModules OperationHandler formatXsdDateTime parseXsdDateTime ' +
    'loadXmlEngine createContractApp HOST_SETTINGS HostSettings runContractServer ServedContract serveContract AppParts buildApp ' +
    'CallContext CallState callOf Contract loadContract addContractRoutes ContractRouteOptions RouteHandler RouteTable liveness ' +
    'requestLog RequestLogFields CloseOptions connectionLimits Listener ListenOptions listen ConfigError digits integer listenHost ' +
    'namespaceUri oneOf optional publicUrl setting SettingSpec SettingsTable settingsTable SettingValues ValueType yesNo ' +
    'HOST_HEADER HelpExtension escapeEach escapeHtml parseUrlEncoded AddressingHeaders AddressingVersion Authenticate Credential ' +
    'ContractAppOptions HeaderStackOptions SoapSecuritySettings MtomSettings ' +
    // What the generated files declare, and the names they import from one another under another name.
    'CONTRACT CallOptions HeaderCallOptions ENDPOINT_PATH ENDPOINT_PATHS JSON_OPERATIONS OPENAPI_PATHS OPERATION_NAMES ' +
    'OPERATIONS Operations PORTS REQUEST_SCHEMAS ROUTES SCRIPT_NAMESPACE SERVICE_NAME TARGET_NAMESPACE VARIANTS ContractHandlers ' +
    'ContractRoute renderImportedWsdls renderOpenApi renderSchema renderSchemas renderScriptProxy renderWsdl xmlns contractSchema ' +
    'faultKind refuseHeaders HeaderRoutes Decoder SCHEMAS baseOf GLOBAL_ELEMENTS ELEMENTS ROOT_TYPES readByType writeByType'
  ).split(' '),
]);

/** `TempConvertAPI` → `TempConvertApi`: the service's name as the client's classes start, a run of capitals one word. */
export function clientBase(service: string): string {
  const name = identifier(service);
  return name.replace(/([A-Z])([A-Z]+)(?=[A-Z][a-z]|$)/g, (_, first: string, rest: string) => first + rest.toLowerCase());
}

/** The parameters and local variables of the generated functions: a class of one of these names would hide itself. */
export const LOCAL_NAMES: ReadonlySet<string> = new Set(
  (
    'element fields field child xml item derived other value root text namespace detail message kind v d m x ' +
    '_soap address attribute body connection decode document error fault init input location name ns op operation ' +
    'options outcome parameters path read request result schema soap throttled variant block header headers into outHeaders route'
  ).split(' '),
);
export const NUMBERED_LOCALS = /^(attribute|group)\d+(Items|At|Last)?$/;

/** Methods and the like of the generated classes: a member of one of these names is renamed. */
const RESERVED_MEMBER_NAMES = new Set([
  'toXml',
  'fromXml',
  'fromFields',
  'xmlAttributes',
  'xsiType',
  'constructor',
  '__proto__',
  'prototype',
]);
const JS_RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface ' +
    'package private protected public await arguments eval'
  ).split(' '),
);

/** The type names taken so far: each claim takes a name and its companions (`Fields`, `Values`). */
export class NameRegistry {
  private readonly taken = new Set<string>();
  private readonly reserved: ReadonlySet<string>;

  /** `reserved`: names generated code declares beside the classes (the client's, from the service's name). */
  constructor(reserved: Iterable<string> = []) {
    this.reserved = new Set([...GENERATED_FILE_NAMES, ...reserved]);
  }

  /** A free identifier for a class or enumeration named `wanted` (a number appended when it is taken). */
  claim(wanted: string): string {
    let name = identifier(wanted);
    // `jsonX` and `jsonToX` are X's JSON writer and reader (json.ts, client.ts): a class of such a name is renamed.
    if (
      RESERVED_TYPE_NAMES.has(name) ||
      JS_RESERVED.has(name) ||
      LOCAL_NAMES.has(name) ||
      NUMBERED_LOCALS.test(name) ||
      /^json(To)?[\p{Lu}_$]/u.test(name)
    )
      name = `${name}_`;
    const free = (n: string) => !this.taken.has(n) && !this.reserved.has(n);
    let candidate = name;
    for (
      let i = 2;
      !free(candidate) || !free(`${candidate}Fields`) || !free(`${candidate}Values`) || NUMBERED_LOCALS.test(candidate);
      i++
    ) {
      candidate = `${name}${i}`;
    }
    this.taken.add(candidate);
    this.taken.add(`${candidate}Fields`);
    this.taken.add(`${candidate}Values`);
    return candidate;
  }
}

/** Members named as TypeScript allows, each once in its class (a second of one name gets a number). */
export function uniqueMembers(fields: FieldModel[], attributes: AttributeModel[], hasText = false, anyAttribute = false): void {
  const taken = new Set<string>([...(hasText ? ['value'] : []), ...(anyAttribute ? [OTHER_ATTRIBUTES] : [])]);
  for (const member of [...fields, ...attributes]) {
    let name = identifier(member.name);
    if (RESERVED_MEMBER_NAMES.has(name) || /^xmlAttributes\d+$/.test(name)) name = `${name}_`;
    let candidate = name;
    for (let i = 2; taken.has(candidate); i++) candidate = `${name}${i}`;
    taken.add(candidate);
    member.name = candidate;
  }
}

/**
 * An XML name as a TypeScript identifier: XmlSerializer's escapes (`_x0020_`)
 * read back, then every character an identifier cannot hold replaced by `_`
 * (a dot in `Ver1.0`); letters of any script are kept.
 */
export function identifier(xmlName: string): string {
  const decoded = xmlName.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  let name = [...decoded]
    .map((c, i) =>
      (i === 0 ? /[\p{ID_Start}$_]/u : /[\p{ID_Continue}$\u200C\u200D]/u).test(c) ? c : /[\p{ID_Continue}]/u.test(c) ? `_${c}` : '_',
    )
    .join('');
  if (name === '') name = '_';
  return name;
}

/** A member name that is no identifier would be a codegen bug: the model checks every one. */
export function identifierCheck(name: string, owner: string): void {
  if (!/^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name))
    throw new Error(`codegen: ${owner}: ${name} is not a JavaScript identifier`);
}

export function sortByName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
