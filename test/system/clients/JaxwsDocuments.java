package documents.client;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.Service;
import javax.xml.ws.WebServiceFeature;
import javax.xml.ws.soap.MTOMFeature;

/**
 * Calls the mtom fixture's Documents contract through the JAX-WS RI proxy wsimport made from the served WSDL
 * (package documents), for test/system/mtom-clients.test.ts. Three runs: each port with no feature configured (the
 * WSDL's wsoma:OptimizedMimeSerialization policy switches MTOM on where JAX-WS reads it: the SOAP 1.2 binding's
 * wsp:PolicyURIs, not the SOAP 1.1 binding's wsp:PolicyAttachment), and the SOAP 1.1 port with MTOMFeature. Each run
 * stores the bytes of FILE under its name (Store) and fetches them back (Fetch) into OUT-NAME.bin:
 * java documents.client.JaxwsDocuments WSDL-URL ADDRESS FILE OUT prints a JSON array, one object per run:
 * {"port": NAME, "stored": SIZE, "fetched": SIZE} or {"port": NAME, "error": {"type", "message"}}.
 */
public class JaxwsDocuments {
  private static final String NS = "http://documents.example.org/";

  public static void main(String[] args) throws Exception {
    Service service = Service.create(new URL(args[0]), new QName(NS, "Documents"));
    byte[] content = Files.readAllBytes(Paths.get(args[2]));
    List<String> results = new ArrayList<>();
    for (String run : new String[] {"DocumentsSoap", "DocumentsSoap+MTOMFeature", "DocumentsSoap12"}) {
      String portName = run.replace("+MTOMFeature", "");
      WebServiceFeature[] features = run.endsWith("+MTOMFeature") ? new WebServiceFeature[] {new MTOMFeature(true)} : new WebServiceFeature[0];
      String head = "{\"port\":\"" + run + "\",";
      try {
        documents.DocumentsPort port = service.getPort(new QName(NS, portName), documents.DocumentsPort.class, features);
        ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, args[1]);
        int stored = port.store(run, content);
        byte[] fetched = port.fetch(run);
        Files.write(Paths.get(args[3] + "-" + run + ".bin"), fetched);
        results.add(head + "\"stored\":" + stored + ",\"fetched\":" + fetched.length + "}");
      } catch (Exception e) {
        String message = String.valueOf(e.getMessage()).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        results.add(head + "\"error\":{\"type\":\"" + e.getClass().getName() + "\",\"message\":\"" + message + "\"}}");
      }
    }
    System.out.println("[" + String.join(",\n", results) + "]");
  }
}
