package dev.spool.agent.jul;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Predicate;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.StreamHandler;

/**
 * One captured {@code FileHandler}'s text written as bytes straight into the handler's own byte
 * meter ({@code FileHandler$MeteredStream}) on the writer thread, instead of through the handler's
 * {@code Writer}: the JDK's {@code StreamEncoder} copies each line into a {@code char[]} and
 * encodes it char by char (a third of the JDK's publish on the writer, issue 13). Everything else
 * stays as the handler's own publish does it ({@link JulHandlerWrite}): the meter counts these
 * bytes, so rotation happens at the same record; the flush, the limit check and the rotation
 * follow; the {@code Writer} writes the head and tail.
 *
 * <p>Used only where the bytes are provably the {@code Writer}'s: the handler is exactly
 * {@code FileHandler} (a subclass may override {@code publish} or {@code flush}); its
 * {@code Writer} is exactly {@code OutputStreamWriter} in UTF-8, ISO-8859-1 or US-ASCII
 * ({@link #CHARSETS}: {@code String.getBytes} replaces unmappable characters and lone surrogates
 * with the same {@code '?'} as the {@code Writer}'s encoder, {@code JulDirectWriteTest}); its
 * header is written (the first record of every file, rotated ones too, goes through the
 * {@code Writer} after the formatter's head, {@link #wroteThroughWriter}); the stream under the meter is Spool's routed stream
 * and has never failed (a failed write can leave bytes in the {@code Writer}'s buffer, which must
 * stay first); and the {@code Writer} holds no character for its next write: a text ending in a
 * high surrogate is written by the {@code Writer}, which keeps that char to pair with the next one,
 * so from then on every line of that handler is (as is every line once any record of the handler
 * took the host's path: formatted by the JDK, its text is not seen here). A write into the meter
 * that fails hands that record's text to the {@code Writer} instead (the host's path, which
 * reports a failure to the handler's {@code ErrorManager} as plain JUL does) and ends direct
 * writes for the handler.
 *
 * <p>Threading: {@link #serve} on the log's drainer only (it holds the handler's monitor and the
 * queue's lock); {@link #hostWrites} from any thread. The diagnostic system property
 * {@code dev.spool.jul.directWrite=false} turns this off (measurement only).
 */
final class JulDirectWrite {

    /** Charsets whose {@code String.getBytes} is the {@code OutputStreamWriter}'s bytes for any text not ending in a high surrogate. */
    static final Set<Charset> CHARSETS = Set.of(StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1, StandardCharsets.US_ASCII);
    static final String METER = "java.util.logging.FileHandler$MeteredStream";
    /** The diagnostic switch's name (not a {@code spool.*} setting: measurement only). */
    static final String SWITCH = "dev.spool.jul.directWrite";
    static final boolean ENABLED = !"false".equals(System.getProperty(SWITCH));

    private final JulHandlerWrite fields;
    private final Predicate<Object> routesCleanly;
    /** A record of this handler took the host's path: its text passed the Writer unseen. */
    private volatile boolean hostWrote;
    /** Direct writes ended for this handler (drainer only). */
    private boolean off;
    /** The handler's stream, its meter (null: not one) and the stream under the meter, as last read. */
    private Object output;
    private OutputStream meter;
    private Object routed;
    private Object writer;
    private Charset charset;
    private long direct;
    private long viaWriter;

    /**
     * @param fields        the handler's private fields
     * @param routesCleanly whether a stream is Spool's routed stream, routing, with no error so far
     */
    JulDirectWrite(JulHandlerWrite fields, Predicate<Object> routesCleanly) {
        this.fields = fields;
        this.routesCleanly = routesCleanly;
        this.off = !ENABLED;
    }

    /**
     * On the drainer ({@link JulHandlerWrite#write}, for a file whose head is written): writes
     * {@code text}'s bytes into the handler's meter and returns {@code ""}, or returns {@code text}
     * for the handler's {@code Writer}.
     */
    String serve(Handler handler, String text) {
        if (usable(handler, text)) {
            byte[] bytes = text.getBytes(charset);
            try {
                meter.write(bytes, 0, bytes.length);
                direct++;
                return "";
            } catch (IOException | RuntimeException e) {
                off = true; // the routed stream failed and writes the host's way now; the Writer takes this record
            }
        } else if (endsInHighSurrogate(text)) {
            off = true; // the Writer keeps that char for its next write: only the Writer may write after it
        }
        viaWriter++;
        return text;
    }

    /**
     * On the drainer: {@code text} went through the handler's {@code Writer} without {@link #serve} (a file's
     * first record, after the head). Ending in a high surrogate, it leaves that char in the {@code Writer}'s
     * encoder to pair with the next record's first: only the {@code Writer} may write after it (issue 30: the
     * next record's bytes written directly made a pair split across two records two {@code '?'}).
     */
    void wroteThroughWriter(String text) {
        viaWriter++;
        if (endsInHighSurrogate(text)) {
            off = true;
        }
    }

    /** A record of this handler takes the host's path (formatted by the JDK, written by the Writer): never direct again. */
    void hostWrites() {
        hostWrote = true;
    }

    /** Records written directly and through the handler's Writer (drainer's counts, for the debug line). */
    String counts() {
        return direct + " written into the file's meter directly, " + viaWriter + " through the handler's Writer";
    }

    private boolean usable(Handler handler, String text) {
        if (off || hostWrote || fields == null || handler.getClass() != FileHandler.class || endsInHighSurrogate(text)) {
            return false;
        }
        StreamHandler h = (StreamHandler) handler;
        Object out = fields.output.get(h);
        if (out != output) { // a file (re)opened: setOutputStream gives every file a new meter
            output = out;
            meter = out != null && out.getClass().getName().equals(METER) ? (OutputStream) out : null;
            routed = meter == null ? null : fields.meterOut.get(meter);
        }
        if (meter == null || !(boolean) fields.doneHeader.get(h)) {
            return false; // not the meter; or the file's first record: the head goes first, through the Writer
        }
        Object w = fields.writer.get(h);
        if (w != writer) { // a new file's Writer, or setEncoding's
            writer = w;
            charset = charsetOf(w);
        }
        return charset != null && routesCleanly.test(routed);
    }

    /** The charset an exact {@code OutputStreamWriter} encodes with, if one of {@link #CHARSETS}; else null. */
    static Charset charsetOf(Object writer) {
        if (writer == null || writer.getClass() != OutputStreamWriter.class) {
            return null;
        }
        try {
            String name = ((OutputStreamWriter) writer).getEncoding(); // null once closed
            Charset cs = name == null ? null : Charset.forName(name);
            return cs != null && CHARSETS.contains(cs) ? cs : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    static boolean endsInHighSurrogate(String text) {
        return !text.isEmpty() && Character.isHighSurrogate(text.charAt(text.length() - 1));
    }
}
