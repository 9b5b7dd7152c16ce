package dev.spool.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;

/**
 * Spool's tagged binary encoding of JSON values: as compact as a binary form can be while every
 * value reads back as the same JSON. Each value starts with a one-byte tag (little-endian numbers):
 *
 * <pre>
 * 0x00 null            0x01 false          0x02 true
 * 0x03 int32  (4)      0x04 int64  (8)     0x05 float32 (4)    0x06 float64 (8)
 * 0x07 string   varint byteLength, UTF-8
 * 0x08 array    u32 count, values
 * 0x09 object   u32 count, (varint keyLength, UTF-8 key, value) per field
 * 0x0A bigint   varint length, two's-complement big-endian magnitude
 * 0x0B decimal  i32 scale, varint length, unscaled two's-complement big-endian
 * 0x0C binary   varint length, bytes (JSON: base64 string, as Jackson writes byte[])
 * 0x10 float64[] 0x11 int64[] 0x12 int32[] 0x13 float32[] 0x14 int16[]
 *               u32 count, then count packed little-endian values (one typed block)
 * </pre>
 * A {@code double[]} of 10^7 values is one 80,000,005-byte block: no boxing, no text.
 */
public final class EventCodec {
    static final byte NULL = 0x00;
    static final byte FALSE = 0x01;
    static final byte TRUE = 0x02;
    static final byte INT32 = 0x03;
    static final byte INT64 = 0x04;
    static final byte FLOAT32 = 0x05;
    static final byte FLOAT64 = 0x06;
    static final byte STRING = 0x07;
    static final byte ARRAY = 0x08;
    static final byte OBJECT = 0x09;
    static final byte BIGINT = 0x0A;
    static final byte DECIMAL = 0x0B;
    static final byte BINARY = 0x0C;
    static final byte F64_ARRAY = 0x10;
    static final byte I64_ARRAY = 0x11;
    static final byte I32_ARRAY = 0x12;
    static final byte F32_ARRAY = 0x13;
    static final byte I16_ARRAY = 0x14;

    private EventCodec() {
    }

    /**
     * Encodes {@code value} (for {@link EventLog#emitEncoded}) into a new array. Maps, collections,
     * arrays, strings, numbers, booleans, null and Jackson trees are encoded directly (primitive
     * arrays as one packed block); any other object (a record, POJO, enum, date) goes through
     * Jackson's {@code valueToTree} first. Thread-safe: each call uses its own scratch buffer.
     *
     * @param value the value to encode, null included
     * @return the encoding, exactly as long as it needs to be (the caller owns it)
     * @throws IllegalArgumentException naming the path of a map key that is not a string, when
     *         the value nests deeper than 1,000 levels (a cycle?), or when Jackson cannot convert it
     */
    public static byte[] encode(Object value) {
        Scratch s = new Scratch(256);
        EventEncoder e = new EventEncoder(s);
        try {
            e.value(value);
        } catch (EncodeException ex) {
            throw new IllegalArgumentException(ex.getMessage(), ex);
        }
        byte[] out = new byte[s.pos];
        s.buf.get(0, out);
        return out;
    }

    /**
     * Decodes one value occupying exactly {@code payload}'s remaining bytes. Reads a view of the
     * buffer: {@code payload}'s position, limit and byte order are left as they were. Thread-safe.
     *
     * @param payload the encoding, from its position to its limit
     * @return the value as a Jackson tree (typed arrays become arrays of numbers; binary becomes a
     *         binary node, written as base64 in JSON)
     * @throws EventFormatException when the bytes are not a well-formed encoding, or bytes remain
     *         after the value
     */
    public static JsonNode decode(ByteBuffer payload) {
        return EventDecoder.decode(payload);
    }
}
