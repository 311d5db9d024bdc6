/*
 * Calls the jaxws-addressing fixture's Orders contract and the ws-security fixture's Notes contract through gSOAP,
 * its code made by wsdl2h and soapcpp2 from the WSDLs the service serves, with the WS-Addressing (wsaapi) and
 * WS-Security (wsseapi) plugins of /usr/share/gsoap/plugin, for test/system/soap-stack-clients.test.ts:
 *
 *   gsoap_ws_client CASE ADDRESS [--soap12] [--user U --password P] [--key KEY.pem --cert CERT.pem] [--verify CA.pem]
 *     CASE: place-order, place-order-unknown, cancel, cancel-unknown (WS-Addressing 1.0: soap_wsa_request with the
 *           WSDL's input action, an anonymous ReplyTo), note-text, note-digest (a UsernameToken, text or digest),
 *           note-signed (the Body and a Timestamp signed, RSA-SHA256, the certificate in a BinarySecurityToken;
 *           with --verify, the answer's signature is verified: soap_wsse_verify_auto, the certificate of its
 *           BinarySecurityToken checked against CA.pem as soap->cafile, then soap_wsse_verify_body; without it
 *           the answer's signature is not looked at)
 *
 * Prints one JSON object: {"ok": TEXT} or {"fault": {"error": N, "code", "string", "orderId"}}.
 *
 * wsdl2h put both SOAP versions' bindings in one table whose first row is SOAP 1.2: gSOAP then speaks SOAP 1.2
 * whatever soap_set_version says, so for SOAP 1.1 the first two rows' URIs are swapped (gSOAP's documented way
 * to choose the version of a namespace table).
 */
#include "soapH.h"
#include "NotesSoap.nsmap"
#include "plugin/wsaapi.h"
#include "plugin/wsseapi.h"
#include <openssl/pem.h>

static const char *option(int argc, char **argv, const char *name) {
  for (int i = 3; i < argc - 1; i++)
    if (!strcmp(argv[i], name)) return argv[i + 1];
  return NULL;
}

static int flag(int argc, char **argv, const char *name) {
  for (int i = 3; i < argc; i++)
    if (!strcmp(argv[i], name)) return 1;
  return 0;
}

static void json_string(const char *text) {
  if (!text) { fputs("null", stdout); return; }
  putchar('"');
  for (const char *c = text; *c; c++) {
    if (*c == '"' || *c == '\\') printf("\\%c", *c);
    else if ((unsigned char)*c < 0x20) printf("\\u%04x", *c);
    else putchar(*c);
  }
  putchar('"');
}

static const char *ORDERS = "http://orders.example.org/ws/OrderPort/";

int main(int argc, char **argv) {
  if (argc < 3) return 64;
  const char *name = argv[1], *address = argv[2];
  /* SOAP_XML_CANONICAL: exclusive canonical output, as the wsse plugin's signatures need */
  struct soap *soap = soap_new1(SOAP_XML_CANONICAL | SOAP_XML_INDENT);
  soap->connect_timeout = 60;
  soap->recv_timeout = soap->send_timeout = 60;
  soap_register_plugin(soap, soap_wsa);
  soap_register_plugin(soap, soap_wsse);
  if (!flag(argc, argv, "--soap12")) {
    static struct Namespace ns11[64];
    int i;
    for (i = 0; namespaces[i].id && i < 63; i++) ns11[i] = namespaces[i];
    for (i = 0; i < 2; i++) { const char *t = ns11[i].ns; ns11[i].ns = ns11[i].in; ns11[i].in = t; }
    soap_set_namespaces(soap, ns11);
  }
  int rc;
  const char *text = NULL;
  char action[256];
  if (!strncmp(name, "place-order", 11) || !strncmp(name, "cancel", 6)) {
    int place = !strncmp(name, "place-order", 11);
    int unknown = strstr(name, "-unknown") != NULL;
    /* wsdl2h names placeOrder's wsam:Action; cancel's follows WS-Addressing's default pattern, which wsdl2h
       leaves empty: the caller names it, as gSOAP's documentation says of soap_wsa_request */
    snprintf(action, sizeof action, "%s%s", ORDERS, place ? "placeOrderRequest" : "cancelRequest");
    soap_wsa_request(soap, soap_wsa_rand_uuid(soap), address, action);
    soap_wsa_add_ReplyTo(soap, "http://www.w3.org/2005/08/addressing/anonymous");
    if (place) {
      struct _ns1__placeOrder request = { .item = unknown ? "unknown" : "pen", .quantity = 3 };
      struct _ns1__placeOrderResponse response;
      rc = soap_call___ns1__placeOrder(soap, address, "", &request, &response);
      if (rc == SOAP_OK) text = response.orderId;
    } else {
      struct _ns1__cancel request = { .orderId = unknown ? "unknown" : "order-9" };
      struct _ns1__cancelResponse response;
      rc = soap_call___ns1__cancel(soap, address, "", &request, &response);
      if (rc == SOAP_OK) text = response.cancelled == xsd__boolean__true_ ? "true" : "false";
    }
  } else {
    const char *user = option(argc, argv, "--user"), *password = option(argc, argv, "--password");
    struct ns2__Note request = { .text = "milk" };
    struct ns2__Receipt response;
    if (!strcmp(name, "note-text")) {
      soap_wsse_add_UsernameTokenText(soap, "User", user, password);
      rc = soap_call___ns2__NoteText(soap, address, "http://notes.example.org/ws/NoteText", &request, &response);
    } else if (!strcmp(name, "note-digest")) {
      soap_wsse_add_UsernameTokenDigest(soap, "User", user, password);
      rc = soap_call___ns2__NoteDigest(soap, address, "http://notes.example.org/ws/NoteDigest", &request, &response);
    } else {
      FILE *f = fopen(option(argc, argv, "--key"), "r");
      EVP_PKEY *key = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
      if (f) fclose(f);
      f = fopen(option(argc, argv, "--cert"), "r");
      X509 *cert = f ? PEM_read_X509(f, NULL, NULL, NULL) : NULL;
      if (f) fclose(f);
      if (!key || !cert) { fputs("cannot read --key or --cert\n", stderr); return 65; }
      soap_wsse_add_Timestamp(soap, "Time", 300);
      soap_wsse_add_BinarySecurityTokenX509(soap, "X509Token", cert);
      soap_wsse_add_KeyInfo_SecurityTokenReferenceX509(soap, "#X509Token");
      soap_wsse_sign_body(soap, SOAP_SMD_SIGN_RSA_SHA256, key, 0);
      const char *verify = option(argc, argv, "--verify");
      if (verify) {
        soap->cafile = verify;
        soap_wsse_verify_auto(soap, SOAP_SMD_NONE, NULL, 0);
      }
      rc = soap_call___ns2__NoteSigned(soap, address, "http://notes.example.org/ws/NoteSigned", &request, &response);
      /* the signature verified: the Body must be among what it covers */
      if (rc == SOAP_OK && verify) rc = soap_wsse_verify_body(soap);
    }
    if (rc == SOAP_OK) text = response.receipt;
  }
  if (rc == SOAP_OK) {
    fputs("{\"ok\":", stdout);
    json_string(text);
    puts("}");
  } else {
    const char **code = soap_faultcode(soap), **string = soap_faultstring(soap);
    const char *orderId = NULL;
    if (soap->fault) {
      struct SOAP_ENV__Detail *detail = soap->fault->detail ? soap->fault->detail : soap->fault->SOAP_ENV__Detail;
      if (detail && detail->ns1__UnknownOrder) orderId = detail->ns1__UnknownOrder->orderId;
    }
    printf("{\"fault\":{\"error\":%d,\"code\":", rc);
    json_string(code ? *code : NULL);
    fputs(",\"string\":", stdout);
    json_string(string ? *string : NULL);
    fputs(",\"orderId\":", stdout);
    json_string(orderId);
    puts("}}");
  }
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return 0;
}
