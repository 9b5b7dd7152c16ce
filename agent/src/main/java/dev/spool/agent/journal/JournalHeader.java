package dev.spool.agent.journal;

import static dev.spool.agent.journal.MappedLogJournal.CHARSET_OFFSET;
import static dev.spool.agent.journal.MappedLogJournal.FORMAT_MAX;
import static dev.spool.agent.journal.MappedLogJournal.FORMAT_OFFSET;
import static dev.spool.agent.journal.MappedLogJournal.HEADER;
import static dev.spool.agent.journal.MappedLogJournal.PID_OFFSET;
import static dev.spool.agent.journal.MappedLogJournal.RING_BYTES_OFFSET;
import static dev.spool.agent.journal.MappedLogJournal.VERSION;

import dev.spool.internal.ZeroFill;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The header of a {@link MappedLogJournal}'s file (the layout is that class's): written once when the file
 * is made, its blocks allocated first, and checked by recovery before it replays a journal. The ring after
 * it is {@link MappedLogJournal}'s alone.
 *
 * <p>Stateless; any thread. A file it makes is its caller's (not yet live) until the caller registers it.
 */
final class JournalHeader {
    private JournalHeader() {
    }

    /**
     * Makes the file {@code path} ({@code HEADER + ringBytes} bytes, nothing may be at the name), every block
     * allocated by writing zeros, and maps it with its header written: {@code magic}, the version, the ring's
     * size, this pid, {@code charset}'s name and {@code format}. The file is deleted when it cannot be allocated
     * or mapped.
     */
    static MappedByteBuffer create(Path path, byte[] magic, String format, Charset charset, int ringBytes) throws IOException {
        byte[] f = format.getBytes(StandardCharsets.UTF_8);
        byte[] cs = charset.name().getBytes(StandardCharsets.UTF_8);
        if (f.length > FORMAT_MAX || cs.length > FORMAT_OFFSET - CHARSET_OFFSET - 4) {
            throw new IOException("journal " + path + " not created: the format string is over " + FORMAT_MAX + " bytes");
        }
        long size = HEADER + (long) ringBytes;
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            try {
                ZeroFill.allocate(ch, size); // every block allocated now: a full disk fails here, never as a SIGBUS
                map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(path); // ours: created above
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            throw new IOException("journal " + path + " not created (" + e + ")", e);
        }
        map.order(ByteOrder.LITTLE_ENDIAN);
        map.put(0, magic);
        map.putInt(8, VERSION);
        map.putInt(RING_BYTES_OFFSET, ringBytes);
        map.putLong(PID_OFFSET, ProcessHandle.current().pid());
        map.putInt(CHARSET_OFFSET, cs.length).put(CHARSET_OFFSET + 4, cs);
        map.putInt(FORMAT_OFFSET, f.length).put(FORMAT_OFFSET + 4, f);
        return map;
    }

    /** {@link MappedLogJournal#headerProblem}: null when {@code m} (the whole file, {@code size} bytes) is a journal with {@code magic}. */
    static String problem(ByteBuffer m, long size, byte[] magic) {
        if (!hasMagic(m, magic) || m.getInt(8) != VERSION) {
            return "no " + new String(magic, StandardCharsets.US_ASCII) + " version " + VERSION + " header";
        }
        int ring = m.getInt(RING_BYTES_OFFSET);
        if (ring <= 0 || ring % 8 != 0 || HEADER + (long) ring != size) {
            return "its ring size (" + ring + ") does not match its size";
        }
        int cs = m.getInt(CHARSET_OFFSET);
        int f = m.getInt(FORMAT_OFFSET);
        return cs < 0 || cs > FORMAT_OFFSET - CHARSET_OFFSET - 4 || f < 0 || f > FORMAT_MAX
                ? "its charset or format string is damaged" : null;
    }

    /** {@link MappedLogJournal#hasMagic}. */
    static boolean hasMagic(ByteBuffer m, byte[] magic) {
        byte[] found = new byte[magic.length];
        m.get(0, found);
        return java.util.Arrays.equals(found, magic);
    }
}
