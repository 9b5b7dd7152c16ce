package dev.spool.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Decodes {@link EventCodec}'s encoding into a Jackson tree, checking every length first. */
final class EventDecoder {
    private static final JsonNodeFactory F = JsonNodeFactory.withExactBigDecimals(true);

    private final ByteBuffer in;
    private int depth;

    private EventDecoder(ByteBuffer in) {
        this.in = in;
    }

    static JsonNode decode(ByteBuffer payload) {
        ByteBuffer in = payload.slice().order(ByteOrder.LITTLE_ENDIAN);
        EventDecoder d = new EventDecoder(in);
        try {
            JsonNode n = d.value();
            if (in.hasRemaining()) {
                throw new EventFormatException(in.remaining() + " trailing bytes after the value", -1);
            }
            return n;
        } catch (EventFormatException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            throw new EventFormatException("malformed value: " + e, -1);
        }
    }

    private JsonNode value() {
        need(1);
        byte tag = in.get();
        switch (tag) {
            case EventCodec.NULL: return F.nullNode();
            case EventCodec.FALSE: return F.booleanNode(false);
            case EventCodec.TRUE: return F.booleanNode(true);
            case EventCodec.INT32: need(4); return F.numberNode(in.getInt());
            case EventCodec.INT64: need(8); return F.numberNode(in.getLong());
            case EventCodec.FLOAT32: need(4); return F.numberNode(in.getFloat());
            case EventCodec.FLOAT64: need(8); return F.numberNode(in.getDouble());
            case EventCodec.STRING: return F.textNode(utf8(varint()));
            case EventCodec.ARRAY: return array();
            case EventCodec.OBJECT: return object();
            case EventCodec.BIGINT: return F.numberNode(new BigInteger(bytes(varint())));
            case EventCodec.DECIMAL: {
                need(4);
                int scale = in.getInt();
                return F.numberNode(new BigDecimal(new BigInteger(bytes(varint())), scale));
            }
            case EventCodec.BINARY: return F.binaryNode(bytes(varint()));
            case EventCodec.F64_ARRAY:
            case EventCodec.I64_ARRAY:
            case EventCodec.I32_ARRAY:
            case EventCodec.F32_ARRAY:
            case EventCodec.I16_ARRAY:
                return packed(tag);
            default:
                throw new EventFormatException("unknown tag 0x" + Integer.toHexString(tag & 0xFF)
                        + " at payload byte " + (in.position() - 1), -1);
        }
    }

    private ArrayNode array() {
        int n = count(1);
        enter();
        ArrayNode a = F.arrayNode(Math.min(n, 1 << 16));
        for (int i = 0; i < n; i++) {
            a.add(value());
        }
        depth--;
        return a;
    }

    private ObjectNode object() {
        int n = count(2);
        enter();
        ObjectNode o = F.objectNode();
        for (int i = 0; i < n; i++) {
            String k = utf8(varint());
            o.set(k, value());
        }
        depth--;
        return o;
    }

    private ArrayNode packed(byte tag) {
        int width = tag == EventCodec.F64_ARRAY || tag == EventCodec.I64_ARRAY ? 8
                : tag == EventCodec.I16_ARRAY ? 2 : 4;
        int n = count(width);
        ArrayNode a = F.arrayNode(n);
        for (int i = 0; i < n; i++) {
            switch (tag) {
                case EventCodec.F64_ARRAY: a.add(in.getDouble()); break;
                case EventCodec.I64_ARRAY: a.add(in.getLong()); break;
                case EventCodec.I32_ARRAY: a.add(in.getInt()); break;
                case EventCodec.F32_ARRAY: a.add(in.getFloat()); break;
                default: a.add(in.getShort()); break;
            }
        }
        return a;
    }

    private void enter() {
        if (++depth > EventEncoder.MAX_DEPTH) {
            throw new EventFormatException("nested deeper than " + EventEncoder.MAX_DEPTH, -1);
        }
    }

    /** A u32 count whose elements need at least {@code minWidth} bytes each: bounded by what is left. */
    private int count(int minWidth) {
        need(4);
        int n = in.getInt();
        if (n < 0 || (long) n * minWidth > in.remaining()) {
            throw new EventFormatException("count " + n + " exceeds the " + in.remaining() + " bytes left", -1);
        }
        return n;
    }

    private int varint() {
        int v = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            need(1);
            byte b = in.get();
            v |= (b & 0x7F) << shift;
            if (b >= 0) {
                if (v < 0) {
                    break;
                }
                return v;
            }
        }
        throw new EventFormatException("bad length", -1);
    }

    private byte[] bytes(int n) {
        need(n);
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    private String utf8(int n) {
        need(n);
        if (in.hasArray()) {
            String s = new String(in.array(), in.arrayOffset() + in.position(), n, StandardCharsets.UTF_8);
            in.position(in.position() + n);
            return s;
        }
        return new String(bytes(n), StandardCharsets.UTF_8);
    }

    private void need(int n) {
        if (n < 0 || in.remaining() < n) {
            throw new EventFormatException("value truncated: needs " + n + " bytes, " + in.remaining() + " left", -1);
        }
    }
}
