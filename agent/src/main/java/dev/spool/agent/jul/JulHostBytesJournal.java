package dev.spool.agent.jul;

import dev.spool.agent.internal.AgentLog;
import dev.spool.agent.journal.HostWrites;
import dev.spool.agent.journal.JournalFiles;
import dev.spool.agent.journal.MappedLogJournal;
import dev.spool.agent.journal.RingRoom;
import dev.spool.agent.journal.UnreachedFrames;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * The journal of a routed {@code FileHandler} whose records take the host's path (issue 33): a
 * formatter or filter of the application's, a format Spool does not reproduce. The handler formats
 * each record on the caller's thread and writes its bytes into the routed stream, which hands them
 * to {@link #before} first: they are stored as they are, a {@link MappedLogJournal#BYTES} frame with
 * the file offset they go to, before they go to the sink, so a kill -9 after the call returned finds
 * them in the journal or in the file; recovery ({@link JulJournalRecovery}) writes a frame's bytes
 * back unchanged where the file lacks them. Frames are done once the sink wrote them ({@link #settle}).
 *
 * <p><b>Files.</b> The journal belongs to the handler's generation-0 file: a rotation's close of the
 * old stream marks every frame written into it done (the sink drained it) before the renames, and the
 * new stream is followed from its start of routing ({@link #routed}), before its first byte. The
 * handler's close retires the journal once its stream closed: removed when every frame is done,
 * else left for the next start of routing for the file.
 *
 * <p><b>Threads.</b> {@link #before}/{@link #after} on the host's thread writing the stream (under
 * the handler's lock), {@link #routed} on the thread opening the next file (a rotation, under it
 * too), {@link #closed} on the thread closing the stream; all synchronized on this object, which
 * never runs host code and waits only for the sink (bounded, a full ring). Example:
 * <pre>{@code
 * JulHostBytesJournal j = JulHostBytesJournal.open(handler, stream, files, errors); // null: not journaled
 * // the routed stream: long f = j.before(b, off, len, pos); sink.write(b, off, len); j.after(f, end);
 * }</pre>
 */
final class JulHostBytesJournal implements HostWrites {
    /** The format string of a journal of bytes alone: recovery formats nothing. */
    static final String FORMAT = "";

    private final MappedLogJournal journal;
    private final JournalFiles files;
    private final Path file;
    private final BiConsumer<String, String> errors;
    private final RingRoom room = new RingRoom();
    /** Frames handed to the sink, not yet known to be in the file. */
    private final UnreachedFrames unreached = new UnreachedFrames();
    private Object stream;
    /** The handler's close began: the stream's close retires the journal. */
    private boolean closing;
    private boolean retired;

    private JulHostBytesJournal(MappedLogJournal journal, JournalFiles files, Path file, BiConsumer<String, String> errors) {
        this.journal = journal;
        this.files = files;
        this.file = file;
        this.errors = errors;
    }

    /** The journal of the handler whose routed stream is {@code stream}, created now; null when not journaled. */
    static JulHostBytesJournal open(Object stream, JournalFiles files, BiConsumer<String, String> errors) {
        Path file = stream == null ? null : files.file(stream);
        if (file == null || files.position(stream) < 0 || files.reached(stream) < 0) {
            AgentLog.debug("JUL journal of host-formatted bytes: the FileHandler's file is not routed: not journaled");
            return null;
        }
        try {
            MappedLogJournal journal = MappedLogJournal.create(file, FORMAT, StandardCharsets.UTF_8);
            JulHostBytesJournal j = new JulHostBytesJournal(journal, files, file, errors);
            synchronized (j) {
                j.follow(stream);
            }
            return j;
        } catch (IOException | RuntimeException e) {
            errors.accept("jul-journal", "cannot journal a FileHandler's bytes (" + e.getMessage() + "): its records are"
                    + " written without a journal (lost by a kill -9 within the visibility bound, as before issue 33)");
            return null;
        }
    }

    /** A new routed stream of the handler (a rotation's next file): followed when it writes the journal's file. */
    synchronized void routed(Object now) {
        if (now == stream || retired || !file.equals(files.file(now)) || files.position(now) < 0) {
            return;
        }
        closed(stream); // ran at the old stream's close; again in case it did not
        follow(now);
    }

    /**
     * The handler's stream now, read once this journal is registered: null (closed while it was made)
     * retires it; another stream (a rotation meanwhile) is followed.
     */
    synchronized void follows(Object now) {
        if (now == null) {
            closing = true;
            closed(stream);
        } else {
            routed(now);
        }
    }

    private void follow(Object now) {
        stream = now;
        journal.reached(Math.max(0, files.reached(now))); // the new file's: the old one's says nothing of it
        files.onHostWrites(now, this);
        files.onClosed(now, () -> closed(now));
        files.showJournal(now, journal::pendingBytes);
    }

    @Override
    public synchronized long before(byte[] b, int off, int len, long pos) {
        if (pos < 0 || len == 0 || retired) {
            return -1;
        }
        long at = journal.appendBytes(b, off, len, pos);
        if (at == MappedLogJournal.FULL) { // the sink is behind: wait for it (bounded), as a synchronous write would
            at = room.afterFull(() -> journal.appendBytes(b, off, len, pos), this::awaitSink, journal, 1);
        }
        if (at < 0) {
            errors.accept("jul-journal-full", "journal " + journal.path + ": " + len + " bytes the handler wrote went"
                    + " without the journal (" + (at == MappedLogJournal.FULL ? "the ring stayed full: the sink is stuck or"
                    + " behind" : "the journal stopped, or the bytes are over half the ring") + "); lost by a kill -9"
                    + " within the visibility bound");
        }
        return at;
    }

    @Override
    public synchronized void after(long frame, long end) {
        if (end < 0) {
            journal.done(frame); // the sink refused them: the host got the error, never replayed
        } else {
            unreached.add(frame, end);
        }
        settle();
    }

    private boolean awaitSink() {
        boolean written = files.awaitWritten(stream);
        settle();
        return written;
    }

    /** Marks done every frame whose bytes reached the file, and trims. */
    private void settle() {
        unreached.settle(journal, files.reached(stream));
    }

    /** The handler's close begins (before its stream's): the stream's close retires the journal. */
    synchronized void closing() {
        closing = true;
    }

    /**
     * The stream's close (its bytes drained into the file first): every frame written through it is done
     * before a rotation renames the file; at the handler's close the journal goes.
     */
    private synchronized void closed(Object which) {
        if (which != stream || retired) {
            return;
        }
        settle();
        int left = unreached.abandon(journal);
        if (left > 0) {
            errors.accept("jul-journal-close", "journal " + journal.path + ": " + left + " writes not in the"
                    + " file when its stream closed (the sink failed): no longer journaled");
        }
        journal.reached(0); // a rotation renames the file next: what reached it says nothing of the new one
        if (closing) {
            retire();
        }
    }

    private void retire() {
        retired = true;
        files.onHostWrites(stream, null);
        if (journal.empty()) {
            try {
                journal.delete();
                return;
            } catch (IOException e) {
                errors.accept("jul-journal", "journal " + journal.path + " not removed (" + e + "): the next start replays"
                        + " nothing from it (its bytes are in the file)");
            }
        }
        journal.abandon();
    }

    /** Whether the handler's close retired this journal. */
    synchronized boolean retired() {
        return retired;
    }
}
