/*
 * Calls the encoded tracker contract (test/fixtures/encoded/tracker.wsdl) through gSOAP, its C code made from the WSDL
 * the server serves (wsdl2h -c -s, soapcpp2 -C -L -x -c): gSOAP writes rpc/encoded calls (xsi:type on every value,
 * SOAP-ENC:Array with its arrayType, an array of arrays as arrays nested) and decodes encoded answers.
 *
 *   gsoap_encoded_client ADDRESS < CALLS.json
 *
 * Reads {"calls": [{"op": NAME, "args": {PART: VALUE, ...}}, ...]} on stdin (other members are ignored), VALUES in the
 * normalized JSON form of test/system/encoded-clients.test.ts, and prints {"client": "gsoap VERSION", "results": [...]}:
 *   {"ok": VALUE, "sent": XML}   {"fault": {"code", "message", "detail"}, "sent": XML}   {"error": {"type", "message"}}
 */
#include "soapH.h"
#include "TrackerBinding.nsmap"
#include <ctype.h>
#include <time.h>

/* ---- just enough JSON ---- */
enum kind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct json {
  enum kind kind;
  char *key;
  char *str;
  double num;
  int size;
  struct json **items;
};

static const char *at;
static void skip(void) { while (isspace((unsigned char)*at)) at++; }

static char *read_string(void) {
  size_t cap = 64, n = 0;
  char *out = malloc(cap);
  at++; /* " */
  while (*at && *at != '"') {
    unsigned code = (unsigned char)*at++;
    int escaped = 0;
    if (code == '\\') {
      char e = *at++;
      code = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : (unsigned char)e;
      if (e == 'u') { sscanf(at, "%4x", &code); at += 4; escaped = 1; }
    }
    if (n + 5 > cap) out = realloc(out, cap *= 2);
    if (code < 0x80 || !escaped) out[n++] = (char)code; /* UTF-8 bytes as they are; \\u escapes encoded */
    else if (code < 0x800) { out[n++] = (char)(0xC0 | code >> 6); out[n++] = (char)(0x80 | (code & 0x3F)); }
    else { out[n++] = (char)(0xE0 | code >> 12); out[n++] = (char)(0x80 | ((code >> 6) & 0x3F)); out[n++] = (char)(0x80 | (code & 0x3F)); }
  }
  at++;
  out[n] = 0;
  return out;
}

static struct json *read_json(void) {
  struct json *v = calloc(1, sizeof *v);
  skip();
  if (*at == '{' || *at == '[') {
    char close = *at == '{' ? '}' : ']';
    v->kind = *at == '{' ? J_OBJ : J_ARR;
    at++;
    skip();
    while (*at && *at != close) {
      char *key = NULL;
      if (v->kind == J_OBJ) { skip(); key = read_string(); skip(); at++; }
      struct json *item = read_json();
      item->key = key;
      v->items = realloc(v->items, sizeof *v->items * (v->size + 1));
      v->items[v->size++] = item;
      skip();
      if (*at == ',') at++;
      skip();
    }
    at++;
  } else if (*at == '"') { v->kind = J_STR; v->str = read_string(); }
  else if (!strncmp(at, "true", 4)) { v->kind = J_BOOL; v->num = 1; at += 4; }
  else if (!strncmp(at, "false", 5)) { v->kind = J_BOOL; at += 5; }
  else if (!strncmp(at, "null", 4)) { v->kind = J_NULL; at += 4; }
  else { char *end; v->kind = J_NUM; v->num = strtod(at, &end); at = end; }
  return v;
}

static struct json *member(struct json *v, const char *key) {
  for (int i = 0; v && v->kind == J_OBJ && i < v->size; i++)
    if (!strcmp(v->items[i]->key, key)) return v->items[i];
  return NULL;
}
static char *str_of(struct json *v) { return v && v->kind == J_STR ? v->str : NULL; }
static int int_of(struct json *v) { return v ? (int)v->num : 0; }

/* ---- JSON out ---- */
static void put_string(const char *text) {
  if (!text) { fputs("null", stdout); return; }
  putchar('"');
  for (const char *c = text; *c; c++) {
    if (*c == '"' || *c == '\\') printf("\\%c", *c);
    else if ((unsigned char)*c < 0x20) printf("\\u%04x", *c);
    else putchar(*c);
  }
  putchar('"');
}

static void put_account(struct ns1__AccountData *a) {
  if (!a) { fputs("null", stdout); return; }
  printf("{\"id\":%d,\"name\":", a->id);
  put_string(a->name);
  fputs(",\"email\":", stdout);
  put_string(a->email);
  putchar('}');
}

static void put_strings(struct ArrayOf_USCOREstring *s) {
  if (!s) { fputs("null", stdout); return; }
  putchar('[');
  for (int i = 0; i < s->__size; i++) { if (i) putchar(','); put_string(s->__ptr[i]); }
  putchar(']');
}

static void put_issue(struct ns1__IssueData *issue) {
  if (!issue) { fputs("null", stdout); return; }
  printf("{\"id\":%d,\"summary\":", issue->id);
  put_string(issue->summary);
  fputs(",\"reporter\":", stdout);
  put_account(issue->reporter);
  fputs(",\"handler\":", stdout);
  put_account(issue->handler);
  fputs(",\"notes\":", stdout);
  if (!issue->notes) fputs("null", stdout);
  else {
    putchar('[');
    for (int i = 0; i < issue->notes->__size; i++) {
      struct ns1__NoteData *note = issue->notes->__ptr[i];
      if (i) putchar(',');
      if (!note) { fputs("null", stdout); continue; }
      printf("{\"id\":%d,\"reporter\":", note->id);
      put_account(note->reporter);
      fputs(",\"text\":", stdout);
      put_string(note->text);
      putchar('}');
    }
    putchar(']');
  }
  fputs(",\"tags\":", stdout);
  put_strings(issue->tags);
  printf(",\"sticky\":%s}", issue->sticky ? "true" : "false");
}

/* ---- JSON to gSOAP's types ---- */
static struct ns1__AccountData *account_of(struct soap *soap, struct json *v) {
  if (!v || v->kind == J_NULL) return NULL;
  struct ns1__AccountData *a = soap_new_ns1__AccountData(soap, 1);
  a->id = int_of(member(v, "id"));
  a->name = str_of(member(v, "name"));
  a->email = str_of(member(v, "email"));
  return a;
}

static struct ArrayOf_USCOREstring *strings_of(struct soap *soap, struct json *v) {
  struct ArrayOf_USCOREstring *s = soap_new_ArrayOf_USCOREstring(soap, 1);
  s->__size = v ? v->size : 0;
  s->__ptr = soap_malloc(soap, sizeof(char *) * (s->__size + 1));
  for (int i = 0; i < s->__size; i++) s->__ptr[i] = v->items[i]->str;
  return s;
}

static struct ns1__IssueData *issue_of(struct soap *soap, struct json *v) {
  struct ns1__IssueData *issue = soap_new_ns1__IssueData(soap, 1);
  issue->id = int_of(member(v, "id"));
  issue->summary = str_of(member(v, "summary"));
  issue->reporter = account_of(soap, member(v, "reporter"));
  issue->handler = account_of(soap, member(v, "handler"));
  struct json *notes = member(v, "notes");
  issue->notes = soap_new_ArrayOf_USCORENoteData(soap, 1);
  issue->notes->__size = notes ? notes->size : 0;
  issue->notes->__ptr = soap_malloc(soap, sizeof(struct ns1__NoteData *) * (issue->notes->__size + 1));
  for (int i = 0; i < issue->notes->__size; i++) {
    struct ns1__NoteData *note = soap_new_ns1__NoteData(soap, 1);
    note->id = int_of(member(notes->items[i], "id"));
    note->reporter = account_of(soap, member(notes->items[i], "reporter"));
    note->text = str_of(member(notes->items[i], "text"));
    issue->notes->__ptr[i] = note;
  }
  issue->tags = strings_of(soap, member(v, "tags"));
  struct json *sticky = member(v, "sticky");
  issue->sticky = sticky && sticky->num ? xsd__boolean__true_ : xsd__boolean__false_;
  return issue;
}

/* ---- the envelope sent ---- */
static char *sent;
static size_t sent_size;
static int (*send_frame)(struct soap *, const char *, size_t);
static int keep_sent(struct soap *soap, const char *s, size_t n) {
  sent = realloc(sent, sent_size + n + 1);
  memcpy(sent + sent_size, s, n);
  sent_size += n;
  sent[sent_size] = 0;
  return send_frame(soap, s, n);
}

static int call(struct soap *soap, const char *address, const char *op, struct json *args) {
  char action[64];
  snprintf(action, sizeof action, "urn:tracker#%s", op);
  if (!strcmp(op, "echoScalars")) {
    struct tm tm = {0};
    strptime(str_of(member(args, "when")), "%Y-%m-%dT%H:%M:%SZ", &tm);
    struct xsd__base64Binary data = {0};
    const char *b64 = str_of(member(args, "data"));
    int size = 0;
    data.__ptr = (unsigned char *)soap_base642s(soap, b64, NULL, 0, &size);
    data.__size = size;
    struct ns1__echoScalarsResponse r;
    struct json *flag = member(args, "flag");
    if (soap_call_ns1__echoScalars(soap, address, action, str_of(member(args, "text")), int_of(member(args, "count")),
                                   flag && flag->num ? xsd__boolean__true_ : xsd__boolean__false_, timegm(&tm),
                                   member(args, "ratio")->num, data, &r)) return soap->error;
    struct ns1__ScalarsData *s = r.return_;
    fputs("{\"ok\":", stdout);
    if (!s) { fputs("null", stdout); return SOAP_OK; }
    fputs("{\"text\":", stdout);
    put_string(s->text);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&s->when));
    printf(",\"count\":%d,\"flag\":%s,\"when\":\"%s\",\"ratio\":%.17g,\"data\":", s->count, s->flag ? "true" : "false", when, s->ratio);
    put_string(soap_s2base64(soap, s->data.__ptr, NULL, s->data.__size));
    putchar('}');
    return SOAP_OK;
  }
  if (!strcmp(op, "echoIssue")) {
    struct ns1__echoIssueResponse r;
    if (soap_call_ns1__echoIssue(soap, address, action, issue_of(soap, member(args, "issue")), &r)) return soap->error;
    fputs("{\"ok\":", stdout);
    put_issue(r.return_);
    return SOAP_OK;
  }
  if (!strcmp(op, "echoIssues")) {
    struct json *list = member(args, "issues");
    struct ArrayOf_USCOREIssueData issues = {0};
    issues.__size = list->size;
    issues.__ptr = soap_malloc(soap, sizeof(struct ns1__IssueData *) * (list->size + 1));
    for (int i = 0; i < list->size; i++) issues.__ptr[i] = issue_of(soap, list->items[i]);
    struct ns1__echoIssuesResponse r;
    if (soap_call_ns1__echoIssues(soap, address, action, &issues, &r)) return soap->error;
    fputs("{\"ok\":", stdout);
    if (!r.return_) fputs("null", stdout);
    else {
      putchar('[');
      for (int i = 0; i < r.return_->__size; i++) { if (i) putchar(','); put_issue(r.return_->__ptr[i]); }
      putchar(']');
    }
    return SOAP_OK;
  }
  if (!strcmp(op, "echoStrings")) {
    struct ns1__echoStringsResponse r;
    if (soap_call_ns1__echoStrings(soap, address, action, strings_of(soap, member(args, "values")), &r)) return soap->error;
    fputs("{\"ok\":", stdout);
    put_strings(r.return_);
    return SOAP_OK;
  }
  if (!strcmp(op, "echoMatrix")) {
    struct json *rows = member(args, "rows");
    struct ArrayOf_USCOREArrayOf_USCOREint matrix = {0};
    matrix.__size = rows->size;
    matrix.__ptr = soap_malloc(soap, sizeof(struct ArrayOf_USCOREint *) * (rows->size + 1));
    for (int i = 0; i < rows->size; i++) {
      struct ArrayOf_USCOREint *row = soap_new_ArrayOf_USCOREint(soap, 1);
      row->__size = rows->items[i]->size;
      row->__ptr = soap_malloc(soap, sizeof(int) * (row->__size + 1));
      for (int j = 0; j < row->__size; j++) row->__ptr[j] = int_of(rows->items[i]->items[j]);
      matrix.__ptr[i] = row;
    }
    struct ns1__echoMatrixResponse r;
    if (soap_call_ns1__echoMatrix(soap, address, action, &matrix, &r)) return soap->error;
    fputs("{\"ok\":", stdout);
    if (!r.return_) fputs("null", stdout);
    else {
      putchar('[');
      for (int i = 0; i < r.return_->__size; i++) {
        struct ArrayOf_USCOREint *row = r.return_->__ptr[i];
        if (i) putchar(',');
        if (!row) { fputs("null", stdout); continue; }
        putchar('[');
        for (int j = 0; j < row->__size; j++) printf(j ? ",%d" : "%d", row->__ptr[j]);
        putchar(']');
      }
      putchar(']');
    }
    return SOAP_OK;
  }
  if (!strcmp(op, "getVersion")) {
    char *version = NULL; /* a single string result: soapcpp2 gives the call its char ** directly */
    if (soap_call_ns1__getVersion(soap, address, action, &version)) return soap->error;
    fputs("{\"ok\":", stdout);
    put_string(version);
    return SOAP_OK;
  }
  if (!strcmp(op, "touchIssue")) {
    struct ns1__touchIssueResponse r;
    if (soap_call_ns1__touchIssue(soap, address, action, int_of(member(args, "id")), &r)) return soap->error;
    fputs("{\"ok\":null", stdout);
    return SOAP_OK;
  }
  return SOAP_NO_METHOD;
}

int main(int argc, char **argv) {
  if (argc < 2) return 64;
  size_t cap = 1 << 16, n = 0, got;
  char *input = malloc(cap);
  while ((got = fread(input + n, 1, cap - n - 1, stdin)) > 0) { n += got; if (n + 1 >= cap) input = realloc(input, cap *= 2); }
  input[n] = 0;
  at = input;
  struct json *job = read_json();
  struct json *calls = member(job, "calls");
  struct soap *soap = soap_new1(SOAP_C_UTFSTRING); /* char * as UTF-8, as the JSON is */
  soap->connect_timeout = soap->recv_timeout = soap->send_timeout = 60;
  send_frame = soap->fsend;
  soap->fsend = keep_sent;
  printf("{\"client\":\"gsoap %d\",\"results\":[", GSOAP_VERSION);
  for (int i = 0; calls && i < calls->size; i++) {
    struct json *c = calls->items[i];
    const char *op = str_of(member(c, "op"));
    if (i) putchar(',');
    sent_size = 0;
    if (sent) sent[0] = 0;
    int status = call(soap, argv[1], op, member(c, "args"));
    if (status == SOAP_NO_METHOD) fputs("{\"error\":{\"type\":\"usage\",\"message\":\"no such operation\"}", stdout);
    else if (status != SOAP_OK && soap->fault) {
      const char *code = *soap_faultcode(soap);
      const char *string = *soap_faultstring(soap);
      fputs("{\"fault\":{\"code\":", stdout);
      put_string(code);
      fputs(",\"message\":", stdout);
      put_string(string);
      fputs(",\"detail\":", stdout);
      struct SOAP_ENV__Detail *detail = soap->fault->detail;
      struct ns1__FaultData *data = NULL;
      if (detail && detail->__type == SOAP_TYPE_ns1__FaultData) data = detail->fault;
      else if (detail && detail->ns1__IssueNotFoundFault) data = detail->ns1__IssueNotFoundFault->fault;
      if (data) { printf("{\"id\":%d,\"reason\":", data->id); put_string(data->reason); putchar('}'); }
      else if (detail && detail->__any && strstr(detail->__any, "<id") && strstr(detail->__any, "<reason")) {
        /* the fault part as the answer qualified it (<ns1:fault>), which gSOAP keeps as XML: its two members read */
        const char *id = strchr(strstr(detail->__any, "<id"), '>') + 1;
        const char *reason = strchr(strstr(detail->__any, "<reason"), '>') + 1;
        printf("{\"id\":%d,\"reason\":", atoi(id));
        char *text = soap_strdup(soap, reason);
        *strchr(text, '<') = 0;
        put_string(text);
        putchar('}');
      } else put_string(detail && detail->__any ? detail->__any : NULL);
      putchar('}');
    } else if (status != SOAP_OK) {
      printf("{\"error\":{\"type\":\"gsoap %d\",\"message\":", status);
      put_string(*soap_faultstring(soap));
      putchar('}');
    }
    fputs(",\"sent\":", stdout);
    /* the HTTP request as sent: its body, after the headers */
    char *body = sent ? strstr(sent, "\r\n\r\n") : NULL;
    put_string(body ? body + 4 : sent);
    putchar('}');
    soap_destroy(soap);
    soap_end(soap);
  }
  puts("]}");
  soap_free(soap);
  return 0;
}
