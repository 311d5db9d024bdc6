/*
 * Calls the mtom fixture's Documents contract through gSOAP, its code made by wsdl2h and soapcpp2 from the WSDL the
 * service serves, for test/system/mtom-clients.test.ts:
 *
 *   gsoap_mtom_client ADDRESS NAME IN OUT [--soap12]
 *
 * Stores the bytes of the file IN under NAME (Store), sent as an MTOM attachment (soap_set_omode(SOAP_ENC_MTOM) and
 * the base64Binary's type set, which makes it an attachment), then fetches them back (Fetch) into the file OUT.
 * Prints one JSON object: {"stored": SIZE, "fetched": SIZE, "attachment": BOOL} (attachment: the answer's content
 * came as an XOP attachment, its id set) or {"fault": {"error": N, "code", "string"}}.
 *
 * wsdl2h put both SOAP versions' bindings in one table whose first row is SOAP 1.2: for SOAP 1.1 the first two rows'
 * URIs are swapped (gSOAP's documented way to choose the version of a namespace table).
 */
#include "soapH.h"
#include "DocumentsSoap.nsmap"

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

static int fault(struct soap *soap) {
  printf("{\"fault\":{\"error\":%d,\"code\":", soap->error);
  json_string(*soap_faultcode(soap));
  fputs(",\"string\":", stdout);
  json_string(*soap_faultstring(soap));
  puts("}}");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 5) return 64;
  const char *address = argv[1], *name = argv[2];
  int soap12 = argc > 5 && !strcmp(argv[5], "--soap12");
  struct soap *soap = soap_new1(SOAP_ENC_MTOM);
  soap->connect_timeout = 60;
  soap->recv_timeout = soap->send_timeout = 60;
  if (!soap12) {
    static struct Namespace ns11[64];
    int i;
    for (i = 0; namespaces[i].id && i < 63; i++) ns11[i] = namespaces[i];
    for (i = 0; i < 2; i++) { const char *t = ns11[i].ns; ns11[i].ns = ns11[i].in; ns11[i].in = t; }
    soap_set_namespaces(soap, ns11);
  }
  soap_set_omode(soap, SOAP_ENC_MTOM);

  FILE *in = fopen(argv[3], "rb");
  if (!in) return 66;
  fseek(in, 0, SEEK_END);
  long size = ftell(in);
  fseek(in, 0, SEEK_SET);
  unsigned char *bytes = soap_malloc(soap, size);
  if (fread(bytes, 1, size, in) != (size_t)size) return 66;
  fclose(in);

  struct _ns1__Store store;
  struct _ns1__StoreResponse stored;
  soap_default__ns1__Store(soap, &store);
  store.name = (char *)name;
  store.content.__ptr = bytes;
  store.content.__size = (int)size;
  store.content.type = "application/octet-stream";
  int rc = soap12 ? soap_call___ns1__Store_(soap, address, "http://documents.example.org/Store", &store, &stored)
                  : soap_call___ns1__Store(soap, address, "http://documents.example.org/Store", &store, &stored);
  if (rc != SOAP_OK) return fault(soap);

  struct _ns1__Fetch fetch;
  struct _ns1__FetchResponse fetched;
  soap_default__ns1__Fetch(soap, &fetch);
  fetch.name = (char *)name;
  rc = soap12 ? soap_call___ns1__Fetch_(soap, address, "http://documents.example.org/Fetch", &fetch, &fetched)
              : soap_call___ns1__Fetch(soap, address, "http://documents.example.org/Fetch", &fetch, &fetched);
  if (rc != SOAP_OK) return fault(soap);
  FILE *out = fopen(argv[4], "wb");
  if (!out || fwrite(fetched.content.__ptr, 1, fetched.content.__size, out) != (size_t)fetched.content.__size) return 73;
  fclose(out);
  printf("{\"stored\":%d,\"fetched\":%d,\"attachment\":%s}\n", stored.size, fetched.content.__size,
         fetched.content.id ? "true" : "false");
  soap_destroy(soap);
  soap_end(soap);
  soap_free(soap);
  return 0;
}
