package orders.client;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.Service;
import javax.xml.ws.WebServiceException;
import javax.xml.ws.soap.SOAPFaultException;
import orders.OrderPort;
import orders.UnknownOrder_Exception;

/**
 * Calls the jaxws-addressing fixture's Orders contract through the JAX-WS RI proxy wsimport made from the served
 * WSDL (package orders), for test/system/soap-stack-clients.test.ts. No feature is configured: the WSDL's
 * wsaw:UsingAddressing and wsam:Addressing policy switch WS-Addressing on, as JAX-WS does by itself. One JVM for
 * every call: java orders.client.JaxwsOrders WSDL-URL ADDRESS prints a JSON array, one object per call:
 * {"name", "ok": TEXT} or {"name", "fault": {"declared": true, "orderId", "message"}} (UnknownOrder_Exception) or
 * {"name", "fault": {"code", "message"}} (SOAPFaultException) or {"name", "error": {"type", "message"}}.
 */
public class JaxwsOrders {
  private static final String NS = "http://orders.example.org/ws";

  interface Call {
    String run(OrderPort port) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Service service = Service.create(new URL(args[0]), new QName(NS, "OrderService"));
    List<String> results = new ArrayList<>();
    for (String portName : new String[] {"OrderPort", "OrderPortSoap12"}) {
      OrderPort port = service.getPort(new QName(NS, portName), OrderPort.class);
      ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, args[1]);
      results.add(call(portName + " placeOrder", port, p -> p.placeOrder("book", 2)));
      results.add(call(portName + " placeOrder fault", port, p -> p.placeOrder("unknown", 1)));
      results.add(call(portName + " cancel", port, p -> String.valueOf(p.cancel("order-7"))));
      results.add(call(portName + " cancel fault", port, p -> String.valueOf(p.cancel("unknown"))));
    }
    System.out.println("[" + String.join(",\n", results) + "]");
  }

  private static String call(String name, OrderPort port, Call call) {
    String head = "{\"name\":" + json(name) + ",";
    try {
      return head + "\"ok\":" + json(call.run(port)) + "}";
    } catch (UnknownOrder_Exception e) {
      return head + "\"fault\":{\"declared\":true,\"orderId\":" + json(e.getFaultInfo().getOrderId()) + ",\"message\":" + json(e.getMessage()) + "}}";
    } catch (SOAPFaultException e) {
      return head + "\"fault\":{\"code\":" + json(String.valueOf(e.getFault().getFaultCodeAsQName())) + ",\"message\":" + json(e.getMessage()) + "}}";
    } catch (WebServiceException e) {
      return head + "\"error\":{\"type\":" + json(e.getClass().getName()) + ",\"message\":" + json(String.valueOf(e.getMessage())) + "}}";
    } catch (Exception e) {
      return head + "\"error\":{\"type\":" + json(e.getClass().getName()) + ",\"message\":" + json(String.valueOf(e.getMessage())) + "}}";
    }
  }

  private static String json(String text) {
    if (text == null) return "null";
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
