/**
 * The JSON variant of the generated client (generated/client.ts): POSTs the
 * parameters as a JSON object to /Service.asmx/{operation}, as browser scripts
 * do, and reads `{"d": …}` or the JSON error (`Message`). No XML: the
 * generated decoders turn `d` into the contract's types, and anything else
 * is a `protocol` fault.
 */
import { JSON_CONTENT_TYPE } from '../wire/content-types';
import { httpFault, protocol, send, type Fault } from './exchange';

export interface JsonConnection {
  /** `{baseUrl}/Service.asmx`. */
  endpoint: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

export interface JsonCall<T> {
  /** `http:operation location`, e.g. `/Add`. */
  httpLocation: string;
  /** The request's fields; undefined ones are left out. */
  parameters: readonly (readonly [string, string | undefined])[];
  /** Turns `d` into the result; throws JsonShapeError when it does not fit the contract. */
  decode(d: unknown): T;
  signal?: AbortSignal;
}

/** `d` is not what the contract promises. */
export class JsonShapeError extends Error {
  override name = 'JsonShapeError';
}

/** Sends one call and reads its answer. Rejects only when the caller's own signal aborts it. */
export async function exchangeJson<T>(connection: JsonConnection, call: JsonCall<T>): Promise<{ result: T } | { fault: Fault }> {
  const body: Record<string, string> = {};
  for (const [name, value] of call.parameters) if (value !== undefined) body[name] = value;
  const answer = await send(
    connection,
    {
      url: connection.endpoint + call.httpLocation,
      method: 'POST',
      headers: { 'Content-Type': JSON_CONTENT_TYPE },
      body: JSON.stringify(body),
    },
    call.signal,
  );
  if ('fault' in answer) return answer;
  const parsed = parseJson(answer.text);
  if (answer.status !== 200) {
    const message = (parsed as { Message?: unknown } | undefined)?.Message;
    return httpFault(answer, typeof message === 'string' ? message : undefined);
  }
  if (parsed === null || typeof parsed !== 'object' || !Object.hasOwn(parsed, 'd'))
    return protocol(answer, 'The answer is not a JSON object with a "d" member.');
  try {
    return { result: call.decode((parsed as { d: unknown }).d) };
  } catch (error) {
    if (error instanceof JsonShapeError) return protocol(answer, error.message);
    throw error;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `d` as a boolean. */
export function jsonBoolean(d: unknown): boolean {
  if (typeof d !== 'boolean') throw new JsonShapeError('The answer\'s "d" is not a boolean.');
  return d;
}

/** `d` as a string. */
export function jsonText(d: unknown): string {
  if (typeof d !== 'string') throw new JsonShapeError('The answer\'s "d" is not a string.');
  return d;
}

/**
 * `d` as an object of `type` (its `__type`, when given, must name it) whose
 * members are strings or null; answers the members, null ones left out.
 */
export function jsonStringMembers(d: unknown, type: string, members: readonly string[]): Record<string, string | undefined> {
  if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new JsonShapeError(`The answer's "d" is not a ${type} object.`);
  const object = d as Record<string, unknown>;
  if (object.__type !== undefined && object.__type !== type)
    throw new JsonShapeError(`The answer's "d" is a ${String(object.__type)} where ${type} was expected.`);
  const fields: Record<string, string | undefined> = {};
  for (const name of members) {
    const value = object[name];
    if (value !== undefined && value !== null && typeof value !== 'string')
      throw new JsonShapeError(`The answer's ${name} is not a string.`);
    fields[name] = value ?? undefined;
  }
  return fields;
}
