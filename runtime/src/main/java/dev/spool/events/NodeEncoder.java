package dev.spool.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.util.Iterator;
import java.util.Map;

/** Encodes a Jackson tree; numbers keep their node type (int, long, double, float, big). */
final class NodeEncoder {
    private NodeEncoder() {
    }

    static void node(EventEncoder e, JsonNode n) {
        switch (n.getNodeType()) {
            case NULL:
            case MISSING:
                e.out.put(EventCodec.NULL);
                return;
            case BOOLEAN:
                e.out.put(n.booleanValue() ? EventCodec.TRUE : EventCodec.FALSE);
                return;
            case STRING:
                e.string(n.textValue());
                return;
            case BINARY:
                try {
                    e.binary(n.binaryValue());
                } catch (java.io.IOException ex) {
                    throw new EncodeException("binary node: " + ex.getMessage(), ex);
                }
                return;
            case NUMBER:
                number(e, n);
                return;
            case ARRAY: {
                int at = e.beginContainer(EventCodec.ARRAY);
                int i = 0;
                for (JsonNode el : n) {
                    e.element(i++, el);
                }
                e.endContainer(at, i);
                return;
            }
            case OBJECT: {
                int at = e.beginContainer(EventCodec.OBJECT);
                int count = 0;
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); count++) {
                    Map.Entry<String, JsonNode> f = it.next();
                    e.field(f.getKey(), f.getValue());
                }
                e.endContainer(at, count);
                return;
            }
            case POJO:
                e.value(((POJONode) n).getPojo());
                return;
            default:
                throw new EncodeException("unsupported JSON node " + n.getNodeType());
        }
    }

    private static void number(EventEncoder e, JsonNode n) {
        switch (n.numberType()) {
            case INT:
                e.int32(n.intValue());
                break;
            case LONG:
                e.int64(n.longValue());
                break;
            case FLOAT:
                e.float32(n.floatValue());
                break;
            case DOUBLE:
                e.float64(n.doubleValue());
                break;
            case BIG_INTEGER:
                e.bigInteger(n.bigIntegerValue());
                break;
            default:
                e.bigDecimal(n.decimalValue());
        }
    }
}
