package dev.spool.agent.journal;

/**
 * A routed log stream's bytes that the host's own formatting or encoding wrote on the caller's
 * thread (issue 33): a JUL handler's formatter Spool does not capture, a Logback encoder it does not
 * defer, an event that took Logback's own path. The routed stream calls {@link #before} just before
 * it hands the bytes to the sink and {@link #after} once it did, both under the owner's lock (JUL's
 * handler monitor, Logback's stream lock), in the order the bytes go to the file; the journal stores
 * them as a {@link MappedLogJournal#BYTES} frame, so a kill -9 after the call returned finds them in
 * the journal or in the file. Bytes Spool's own writer writes for a record it journaled already are
 * not stored twice ({@link #before} answers -1).
 *
 * <p>Example, inside the routed stream's {@code write}:
 * <pre>{@code
 * long frame = hostWrites.before(b, off, len, position());
 * sink.write(b, off, len);
 * hostWrites.after(frame, position());
 * }</pre>
 */
public interface HostWrites {

    /**
     * Stores {@code b[off, off+len)}, whose first byte goes to file offset {@code pos}: the frame, or -1
     * when not stored (Spool's own record, no room in time, the journal stopped: counted by the journal).
     */
    long before(byte[] b, int off, int len, long pos);

    /**
     * The bytes of {@code frame} went to the sink ({@code end}: the file offset after them), or did not
     * ({@code end} -1: the sink failed and the host got the error, so they are never replayed).
     */
    void after(long frame, long end);
}
