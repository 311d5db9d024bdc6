import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSDataRef;
import org.apache.ws.security.WSSecurityEngine;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.components.crypto.Merlin;
import org.apache.ws.security.util.WSSecurityUtil;
import org.w3c.dom.Document;

/**
 * Checks WS-Security signed SOAP answers with Apache WSS4J 1.6 (Debian libwss4j-java), as a JAX-WS client's
 * inbound security handler does: processSecurityHeader with a crypto whose trust store holds the service's
 * certificate only. Usage: Wss4jVerifyAnswers SERVICE.pem ANSWER.xml...; prints one line per answer:
 * `NAME valid SIGNED...` (each signed element as {namespace}local) or `NAME refused REASON`.
 */
public class Wss4jVerifyAnswers {
  public static void main(String[] args) throws Exception {
    X509Certificate service;
    try (FileInputStream in = new FileInputStream(args[0])) {
      service = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
    KeyStore trust = KeyStore.getInstance("JKS");
    trust.load(null, null);
    trust.setCertificateEntry("service", service);
    Merlin crypto = new Merlin();
    crypto.setTrustStore(trust);
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    for (int i = 1; i < args.length; i++) {
      String name = Paths.get(args[i]).getFileName().toString();
      Document answer = factory.newDocumentBuilder().parse(new ByteArrayInputStream(Files.readAllBytes(Paths.get(args[i]))));
      try {
        List<WSSecurityEngineResult> results = new WSSecurityEngine().processSecurityHeader(answer, null, null, crypto);
        if (results == null) {
          System.out.println(name + " refused no-security-header");
          continue;
        }
        StringBuilder signed = new StringBuilder();
        List<WSSecurityEngineResult> signatures =
            WSSecurityUtil.fetchAllActionResults(results, WSConstants.SIGN, new ArrayList<WSSecurityEngineResult>());
        for (WSSecurityEngineResult result : signatures) {
          @SuppressWarnings("unchecked")
          List<WSDataRef> references = (List<WSDataRef>) result.get(WSSecurityEngineResult.TAG_DATA_REF_URIS);
          for (WSDataRef reference : references) signed.append(' ').append(reference.getName().toString());
        }
        System.out.println(name + (signatures.isEmpty() ? " refused no-signature" : " valid" + signed));
      } catch (Exception e) {
        System.out.println(name + " refused " + e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
    }
  }
}
