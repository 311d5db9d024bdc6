/*
 * Calls the encoded tracker contract (test/fixtures/encoded/tracker.wsdl) through Apache Axis 1 (libaxis-java), with
 * the stubs WSDL2Java makes of the WSDL the server serves (package tracker): Axis writes rpc/encoded calls with its
 * defaults, each struct and array as a multi-reference value (<multiRef id="id0"> beside the call in the Body, the
 * parameter an href="#id0").
 *
 * Reads {"wsdl": URL, "calls": [{"op": NAME, "args": {PART: VALUE, ...}}, ...]} on stdin, VALUES in the normalized JSON
 * form of test/system/encoded-clients.test.ts, and prints {"client": "axis VERSION", "results": [...]}:
 *   {"ok": VALUE, "sent": XML}   {"fault": {"code", "message", "detail"}, "sent": XML}   {"error": {"type", "message"}}
 */
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Calendar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;

public class AxisTrackerClient {
  public static void main(String[] argv) throws Exception {
    InputStream in = System.in;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    in.transferTo(bytes);
    @SuppressWarnings("unchecked")
    Map<String, Object> job = (Map<String, Object>) new Json(bytes.toString(StandardCharsets.UTF_8)).read();
    tracker.TrackerPortType port = new tracker.TrackerServiceLocator().getTrackerPort(new URL(address((String) job.get("wsdl"))));
    org.apache.axis.client.Stub stub = (org.apache.axis.client.Stub) port;
    stub.setTimeout(60_000);
    List<Object> results = new ArrayList<>();
    for (Object each : (List<?>) job.get("calls")) {
      Map<?, ?> call = (Map<?, ?>) each;
      Map<?, ?> args = (Map<?, ?>) call.get("args");
      Map<String, Object> result = new LinkedHashMap<>();
      try {
        result.put("ok", call(port, (String) call.get("op"), args));
      } catch (tracker.FaultData fault) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("code", fault.getFaultCode().getLocalPart());
        f.put("message", fault.getFaultString());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("id", fault.getId());
        detail.put("reason", fault.getReason());
        f.put("detail", detail);
        result.put("fault", f);
      } catch (org.apache.axis.AxisFault fault) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("code", fault.getFaultCode().getLocalPart());
        f.put("message", fault.getFaultString());
        f.put("detail", null);
        result.put("fault", f);
      } catch (Exception error) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("type", error.getClass().getName());
        e.put("message", String.valueOf(error.getMessage()));
        result.put("error", e);
      }
      try {
        result.put("sent", stub._getCall().getMessageContext().getRequestMessage().getSOAPPartAsString());
      } catch (Exception ignored) {
        result.put("sent", null);
      }
      results.add(result);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("client", "axis " + org.apache.axis.Version.getVersionText());
    out.put("results", results);
    System.out.print(Json.write(out));
  }

  /** The WSDL's soap:address (the stubs' default is the address WSDL2Java read, which is the same server). */
  static String address(String wsdl) throws Exception {
    try (InputStream in = new URL(wsdl).openStream()) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("<soap:address\\s+location=\"([^\"]+)\"").matcher(text);
      if (!m.find()) throw new IllegalStateException("no soap:address in the WSDL");
      return m.group(1);
    }
  }

  static Object call(tracker.TrackerPortType port, String op, Map<?, ?> a) throws Exception {
    switch (op) {
      case "echoScalars":
        return scalars(port.echoScalars((String) a.get("text"), ((Number) a.get("count")).intValue(), (Boolean) a.get("flag"),
            calendar((String) a.get("when")), ((Number) a.get("ratio")).doubleValue(), Base64.getDecoder().decode((String) a.get("data"))));
      case "echoIssue":
        return issue(port.echoIssue(issue((Map<?, ?>) a.get("issue"))));
      case "echoIssues": {
        List<?> list = (List<?>) a.get("issues");
        tracker.IssueData[] issues = new tracker.IssueData[list.size()];
        for (int i = 0; i < issues.length; i++) issues[i] = issue((Map<?, ?>) list.get(i));
        List<Object> out = new ArrayList<>();
        tracker.IssueData[] answered = port.echoIssues(issues);
        if (answered == null) return null;
        for (tracker.IssueData each : answered) out.add(issue(each));
        return out;
      }
      case "echoStrings": {
        String[] answered = port.echoStrings(((List<?>) a.get("values")).toArray(new String[0]));
        return answered == null ? null : List.of((Object[]) answered);
      }
      case "echoMatrix": {
        List<?> rows = (List<?>) a.get("rows");
        int[][] matrix = new int[rows.size()][];
        for (int i = 0; i < matrix.length; i++) {
          List<?> row = (List<?>) rows.get(i);
          matrix[i] = new int[row.size()];
          for (int j = 0; j < matrix[i].length; j++) matrix[i][j] = ((Number) row.get(j)).intValue();
        }
        int[][] answered = port.echoMatrix(matrix);
        if (answered == null) return null;
        List<Object> out = new ArrayList<>();
        for (int[] row : answered) {
          List<Object> items = new ArrayList<>();
          for (int v : row) items.add(v);
          out.add(items);
        }
        return out;
      }
      case "getVersion":
        return port.getVersion();
      case "touchIssue":
        port.touchIssue(((Number) a.get("id")).intValue());
        return null;
      default:
        throw new IllegalArgumentException("no operation " + op);
    }
  }

  static Calendar calendar(String text) throws Exception {
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
    format.setTimeZone(TimeZone.getTimeZone("UTC"));
    Calendar c = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    c.setTime(format.parse(text));
    return c;
  }

  static String text(Calendar c) {
    if (c == null) return null;
    SimpleDateFormat format = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
    format.setTimeZone(TimeZone.getTimeZone("UTC"));
    return format.format(c.getTime());
  }

  static Map<String, Object> scalars(tracker.ScalarsData s) {
    if (s == null) return null;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("text", s.getText());
    m.put("count", s.getCount());
    m.put("flag", s.isFlag());
    m.put("when", text(s.getWhen()));
    m.put("ratio", s.getRatio());
    m.put("data", s.getData() == null ? null : Base64.getEncoder().encodeToString(s.getData()));
    return m;
  }

  static tracker.AccountData account(Map<?, ?> m) {
    if (m == null) return null;
    return new tracker.AccountData(((Number) m.get("id")).intValue(), (String) m.get("name"), (String) m.get("email"));
  }

  static Map<String, Object> account(tracker.AccountData a) {
    if (a == null) return null;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", a.getId());
    m.put("name", a.getName());
    m.put("email", a.getEmail());
    return m;
  }

  static tracker.IssueData issue(Map<?, ?> m) {
    List<?> notes = (List<?>) m.get("notes");
    tracker.NoteData[] n = new tracker.NoteData[notes.size()];
    for (int i = 0; i < n.length; i++) {
      Map<?, ?> note = (Map<?, ?>) notes.get(i);
      n[i] = new tracker.NoteData(((Number) note.get("id")).intValue(), account((Map<?, ?>) note.get("reporter")), (String) note.get("text"));
    }
    return new tracker.IssueData(((Number) m.get("id")).intValue(), (String) m.get("summary"), account((Map<?, ?>) m.get("reporter")),
        account((Map<?, ?>) m.get("handler")), n, ((List<?>) m.get("tags")).toArray(new String[0]), (Boolean) m.get("sticky"));
  }

  static Map<String, Object> issue(tracker.IssueData i) {
    if (i == null) return null;
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", i.getId());
    m.put("summary", i.getSummary());
    m.put("reporter", account(i.getReporter()));
    m.put("handler", account(i.getHandler()));
    List<Object> notes = null;
    if (i.getNotes() != null) {
      notes = new ArrayList<>();
      for (tracker.NoteData n : i.getNotes()) {
        Map<String, Object> note = new LinkedHashMap<>();
        note.put("id", n.getId());
        note.put("reporter", account(n.getReporter()));
        note.put("text", n.getText());
        notes.add(note);
      }
    }
    m.put("notes", notes);
    m.put("tags", i.getTags() == null ? null : List.of((Object[]) i.getTags()));
    m.put("sticky", i.isSticky());
    return m;
  }

  /** Just enough JSON: objects, arrays, strings, numbers, true, false, null. */
  static final class Json {
    private final String s;
    private int i;

    Json(String s) { this.s = s; }

    Object read() {
      skip();
      char c = s.charAt(i);
      if (c == '{') {
        i++;
        Map<String, Object> m = new LinkedHashMap<>();
        skip();
        if (s.charAt(i) == '}') { i++; return m; }
        while (true) {
          skip();
          String key = (String) read();
          skip();
          i++; // :
          m.put(key, read());
          skip();
          if (s.charAt(i++) == '}') return m;
        }
      }
      if (c == '[') {
        i++;
        List<Object> l = new ArrayList<>();
        skip();
        if (s.charAt(i) == ']') { i++; return l; }
        while (true) {
          l.add(read());
          skip();
          if (s.charAt(i++) == ']') return l;
        }
      }
      if (c == '"') {
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
          char d = s.charAt(i++);
          if (d == '"') return b.toString();
          if (d == '\\') {
            char e = s.charAt(i++);
            switch (e) {
              case 'n': b.append('\n'); break;
              case 't': b.append('\t'); break;
              case 'r': b.append('\r'); break;
              case 'b': b.append('\b'); break;
              case 'f': b.append('\f'); break;
              case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
              default: b.append(e);
            }
          } else b.append(d);
        }
      }
      if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
      if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
      if (s.startsWith("null", i)) { i += 4; return null; }
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      String number = s.substring(start, i);
      if (number.matches("-?\\d+")) return Long.parseLong(number);
      return Double.parseDouble(number);
    }

    private void skip() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    static String write(Object v) {
      if (v == null) return "null";
      if (v instanceof String) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : ((String) v).toCharArray()) {
          if (c == '"' || c == '\\') b.append('\\').append(c);
          else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
          else b.append(c);
        }
        return b.append('"').toString();
      }
      if (v instanceof Map) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          if (b.length() > 1) b.append(',');
          b.append(write(String.valueOf(e.getKey()))).append(':').append(write(e.getValue()));
        }
        return b.append('}').toString();
      }
      if (v instanceof List) {
        StringBuilder b = new StringBuilder("[");
        for (Object e : (List<?>) v) {
          if (b.length() > 1) b.append(',');
          b.append(write(e));
        }
        return b.append(']').toString();
      }
      return String.valueOf(v);
    }
  }
}
