package dev.spool.events;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The on-disk layout of a Spool event file, described once (docs/FORMAT.md repeats it byte by
 * byte). All integers are little-endian.
 *
 * <pre>
 * File header (16 bytes, once at offset 0):
 *   0       8      10      12              16
 *   +-------+------+-------+---------------+
 *   | magic |versn |hdrLen |   reserved 0  |
 *   +-------+------+-------+---------------+
 *   magic = ASCII "SPOOLEVT", version = 1 (u16), hdrLen = 16 (u16)
 *
 * Frame (one record, or one part of a split record), 32-byte header then payload:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +---------------------------------------------------------------+
 *   |                 Frame Length (header + payload)               |  0
 *   +---------------------------------------------------------------+
 *   |     CRC32C of bytes [0,4) and [8, Frame Length)               |  4
 *   +---------------+---------------+-------------------------------+
 *   |     Type      |     Flags     |       Reserved (0)            |  8
 *   +---------------+---------------+-------------------------------+
 *   |                 Part Index (0 unless split)                   | 12
 *   +---------------------------------------------------------------+
 *   |                 Timestamp, epoch milliseconds                 | 16
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                 Producer Thread Id                            | 24
 *   |                                                               |
 *   +---------------------------------------------------------------+
 *   |                 Payload ...                                   | 32
 * </pre>
 * Frames follow each other without padding. A frame length of 0 starts zero padding (a crashed
 * memory-mapped writer), which ends the data. Flags: {@link #FLAG_PART} marks a part of a split
 * record, {@link #FLAG_LAST} its last part; the parts of one record are the consecutive
 * {@code PART} frames of one thread id, numbered from 0.
 */
final class RecordDescriptor {
    public static final byte[] MAGIC = "SPOOLEVT".getBytes(StandardCharsets.US_ASCII);
    public static final int VERSION = 1;
    public static final int FILE_HEADER_LENGTH = 16;

    public static final int LENGTH_OFFSET = 0;
    public static final int CRC_OFFSET = 4;
    public static final int TYPE_OFFSET = 8;
    public static final int FLAGS_OFFSET = 9;
    public static final int RESERVED_OFFSET = 10;
    public static final int PART_INDEX_OFFSET = 12;
    public static final int TIMESTAMP_OFFSET = 16;
    public static final int THREAD_ID_OFFSET = 24;
    public static final int HEADER_LENGTH = 32;

    /** Payload: one JSON value in Spool's tagged binary encoding (see {@link EventCodec}). */
    public static final byte TYPE_EVENT = 1;

    public static final byte FLAG_PART = 1;
    public static final byte FLAG_LAST = 2;
    static final int KNOWN_FLAGS = FLAG_PART | FLAG_LAST;

    private RecordDescriptor() {
    }

    /** The file header bytes. */
    public static ByteBuffer fileHeader() {
        ByteBuffer b = ByteBuffer.allocate(FILE_HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putShort((short) VERSION).putShort((short) FILE_HEADER_LENGTH).putInt(0);
        return b.flip();
    }

    /** True when {@code b} (absolute, from 0) starts with a valid file header. */
    public static boolean isFileHeader(ByteBuffer b) {
        if (b.limit() < FILE_HEADER_LENGTH) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (b.get(i) != MAGIC[i]) {
                return false;
            }
        }
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        return le.getShort(8) == VERSION && le.getShort(10) == FILE_HEADER_LENGTH && le.getInt(12) == 0;
    }

    /**
     * Writes a frame header at {@code at} in {@code b} (little-endian) with a zero CRC; the
     * frame's payload length is {@code payloadLength}.
     */
    public static void putHeader(ByteBuffer b, int at, int payloadLength, byte type, byte flags,
                                 int partIndex, long timestampMillis, long threadId) {
        b.putInt(at + LENGTH_OFFSET, HEADER_LENGTH + payloadLength);
        b.putInt(at + CRC_OFFSET, 0);
        b.put(at + TYPE_OFFSET, type);
        b.put(at + FLAGS_OFFSET, flags);
        b.putShort(at + RESERVED_OFFSET, (short) 0);
        b.putInt(at + PART_INDEX_OFFSET, partIndex);
        b.putLong(at + TIMESTAMP_OFFSET, timestampMillis);
        b.putLong(at + THREAD_ID_OFFSET, threadId);
    }

    /**
     * CRC32C of a frame whose header is {@code header[hAt, hAt+32)} and whose payload is
     * {@code payload[pAt, pAt+pLen)}: bytes [0,4) and [8,32) of the header, then the payload.
     * Allocation-free: it moves the buffers' position and limit and restores them, so the
     * buffers must not be used by another thread meanwhile.
     */
    public static int crc(CRC32C crc, ByteBuffer header, int hAt, ByteBuffer payload, int pAt, int pLen) {
        crc.reset();
        update(crc, header, hAt + LENGTH_OFFSET, 4);
        update(crc, header, hAt + TYPE_OFFSET, HEADER_LENGTH - TYPE_OFFSET);
        update(crc, payload, pAt, pLen);
        return (int) crc.getValue();
    }

    private static void update(CRC32C crc, ByteBuffer b, int at, int len) {
        int pos = b.position();
        int lim = b.limit();
        if (at + len > lim) {
            b.limit(at + len);
            b.position(at);
        } else {
            b.position(at);
            b.limit(at + len);
        }
        crc.update(b);
        b.limit(lim);
        b.position(pos);
    }

    /** True when a header's fixed fields are plausible (cheap pre-check before the CRC). */
    static boolean plausibleHeader(ByteBuffer b, int at, long remaining) {
        int length = b.getInt(at + LENGTH_OFFSET);
        return length >= HEADER_LENGTH && length <= remaining
                && b.get(at + TYPE_OFFSET) == TYPE_EVENT
                && (b.get(at + FLAGS_OFFSET) & ~KNOWN_FLAGS) == 0
                && b.getShort(at + RESERVED_OFFSET) == 0
                && b.getInt(at + PART_INDEX_OFFSET) >= 0;
    }
}
