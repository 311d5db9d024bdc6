/** The Content-Types of the answers that are not SOAP (SOAP's are in soap-envelope.ts). */

/** HTTP GET and HTTP POST answers: a bare XML element. */
export const HTTP_CONTENT_TYPE = 'text/xml; charset=utf-8';

/** JSON answers and errors for browser scripts. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
