/** Calls of the JSON variant (ASP.NET AJAX script service) and readers of its answers. */
import type { ExecutionContext } from 'ava';
import { send, type Answer, type Operation } from './requests';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** POSTs `body` (an object is JSON-encoded, a string or bytes sent as they are) to /api.asmx/{operation}. */
export async function postJson(
  baseUrl: string,
  operation: Operation | string,
  body: unknown,
  contentType = JSON_CONTENT_TYPE,
): Promise<Answer> {
  const payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return send(`${baseUrl}/api.asmx/${operation}`, { method: 'POST', headers: { 'Content-Type': contentType }, body: payload });
}

/** The `d` of a successful answer, after checking the status and Content-Type. */
export function readD(t: ExecutionContext, answer: Answer, label = ''): unknown {
  t.is(answer.status, 200, `${label}: ${answer.body}`);
  t.is(answer.contentType, JSON_CONTENT_TYPE, label);
  t.is(answer.headers.get('jsonerror'), null, label);
  const parsed = JSON.parse(answer.body) as Record<string, unknown>;
  t.deepEqual(Object.keys(parsed), ['d'], label);
  return parsed.d;
}

export interface JsonError {
  Message: string;
  StackTrace: string;
  ExceptionType: string;
}

/** An error answer in the shape ASP.NET AJAX's proxy and jQuery read; never a stack trace. */
export function readJsonError(t: ExecutionContext, answer: Answer, status: number, exceptionType: string, label = ''): JsonError {
  t.is(answer.status, status, `${label}: ${answer.body}`);
  t.is(answer.contentType, JSON_CONTENT_TYPE, label);
  t.is(answer.headers.get('jsonerror'), 'true', label);
  const error = JSON.parse(answer.body) as JsonError;
  t.deepEqual(Object.keys(error), ['Message', 'StackTrace', 'ExceptionType'], label);
  t.is(error.StackTrace, '', label);
  t.is(error.ExceptionType, exceptionType, label);
  t.regex(error.Message, /^\S[^\n]*\.$/, `${label}: one sentence`);
  t.false(/\n| {4}at /.test(answer.body), `${label}: no stack frames`);
  return error;
}
