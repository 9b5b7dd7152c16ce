package dev.spool.agent.jul;

import dev.spool.agent.journal.JournalFiles;

import dev.spool.agent.journal.MappedLogJournal;
import dev.spool.agent.journal.RingRoom;
import dev.spool.agent.journal.UnreachedFrames;

import dev.spool.agent.internal.AgentLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;

/**
 * One captured {@code FileHandler}'s journal as its log uses it (issue 33): the caller journals a
 * captured record before queueing it ({@link #append}); the drainer records where its line goes
 * ({@link #beforeWrite}), keeps it until the routed stream says its bytes are in the file
 * ({@link #afterWrite}, {@link #settle}) and trims; {@link #retire} (the handler's close) waits
 * for the sink and removes the journal.
 *
 * <p>Journaled: a handler with {@code SimpleFormatter} ({@link JulJournalCodec}) or {@code XMLFormatter}
 * ({@link JulXmlJournalCodec}; the formatter's head, which the handler writes before a file's first record,
 * is in the journal's header with the offset it goes to, {@link MappedLogJournal#HEAD_AT_OFFSET}: recovery
 * writes the part of it a kill kept from the file) whose file is routed (the routed stream knows its file, its offset and
 * what reached the file) and written in a charset whose bytes recovery reproduces with
 * {@code String.getBytes} ({@link JulJournalCharsets}: the charsets whose encoder carries nothing from
 * one line to the next, single- or multi-byte). Anything else is left as before issue 33
 * (captured, not journaled), named once in the agent's debug log.
 *
 * <p><b>Rotation</b> ({@code limit} above 0): the journal belongs to the generation-0 file's name and
 * follows it. The old stream's close (in {@code rotate()}, before the renames) settles the journal
 * ({@link #closed}): every line written into that file is in it by then, so none is left pending to be
 * replayed into the next file by a kill after the rename; records still queued keep their frames with no
 * offset. The first write after the rotation finds the new routed stream under the meter and follows
 * it ({@link #follow}); its offsets count from the new file's start. A kill between the rename and the
 * new file's first line leaves only unwritten records: the next start appends them to the generation-0
 * file (beside it when that file is empty, {@code RecoveryTarget}), never lost, in order.
 *
 * <p>Threads: {@link #append} on callers (lock-free while the ring has room; full, the caller drains
 * under the handler's monitor and waits for the sink, bounded); the rest on the log's drainer (under
 * its queue's drain lock and the handler's monitor). Example:
 * <pre>{@code
 * JulJournalWriter j = JulJournalWriter.open(handler, formatter, format, writes, files, errors); // null: not journaled
 * j.append(captured, log.journalRoom); queue.offer(captured); // caller
 * j.beforeWrite(r); write(r); j.afterWrite(r); j.settle(); // drainer
 * }</pre>
 */
final class JulJournalWriter {
    private final MappedLogJournal journal;
    private final JulJournalEncoder codec;
    /** The XML formatter's head in the file's charset, or null (a {@code SimpleFormatter}'s head is empty). */
    private final byte[] head;
    private final JournalFiles files;
    /** The file journaled: the handler's generation-0 file, the same across rotations. */
    private final Path file;
    /** The routed stream the lines go through now (changed by a rotation; under the handler's monitor). */
    private Object stream;
    private final BiConsumer<String, String> errors;
    /** Records written whose bytes may still be in the sink: {frame, file offset after the line} (drainer only). */
    private final UnreachedFrames unreached = new UnreachedFrames();
    private final AtomicLong notJournaled = new AtomicLong();
    /** A full ring's room-making, shared by the callers. */
    private final RingRoom room = new RingRoom();
    private long before;
    /** The stream closed since {@link #beforeWrite} (a rotation inside the write, after the line's bytes). */
    private boolean streamClosed;
    /** {@link #retire} ran (the handler's close, before its stream's): {@link #closed} then changes nothing more. */
    private boolean retired;
    /** The frame being written now (between {@link #beforeWrite} and {@link #afterWrite}), or -1. */
    private long inFlight = -1;

    private JulJournalWriter(MappedLogJournal journal, JulJournalEncoder codec, byte[] head, JournalFiles files,
                             Path file, Object stream, BiConsumer<String, String> errors) {
        this.journal = journal;
        this.codec = codec;
        this.head = head;
        this.files = files;
        this.file = file;
        this.stream = stream;
        this.errors = errors;
    }

    /**
     * Whether {@code handler} would be journaled but its file is not routed yet (the stream under its meter
     * is not Spool's routed one): an agent attached to a running host takes the open handler over only
     * after it started capturing its records.
     */
    static boolean notRoutedYet(FileHandler handler, JulFormat format, JulHandlerWrite writes, JournalFiles files) {
        if (!journalable(format, writes, files)) {
            return false;
        }
        try {
            Object stream = writes.underMeter(handler);
            return stream == null || files.file(stream) == null;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether a handler of {@code format} can be journaled at all: journals on, and a formatter whose lines recovery makes. */
    private static boolean journalable(JulFormat format, JulHandlerWrite writes, JournalFiles files) {
        return files != null && writes != null && (format instanceof CompiledSimpleFormatter || format instanceof JulXmlFormat);
    }

    /** The journal of {@code handler}, created now; null when the handler is not journaled (see the class). */
    static JulJournalWriter open(FileHandler handler, Formatter formatter, JulFormat format, JulHandlerWrite writes,
                                 JournalFiles files, BiConsumer<String, String> errors) {
        if (!journalable(format, writes, files)) {
            return null;
        }
        try {
            Object stream = writes.underMeter(handler);
            Path file = stream == null ? null : files.file(stream);
            Charset charset = JulJournalCharsets.of(writes.writer(handler));
            if (file == null || charset == null || files.position(stream) < 0 || files.reached(stream) < 0) {
                AgentLog.debug("JUL journal: " + (file == null ? "a FileHandler whose file is not routed" : file
                        + (charset == null ? " is not in a charset whose lines a journal replays exactly"
                        + " (JulJournalCharsets)" : ": its routed offsets are unknown"))
                        + ": not journaled");
                return null;
            }
            MappedLogJournal journal;
            JulJournalWriter w;
            if (format instanceof JulXmlFormat xml) {
                String headText = formatter.getHead(handler); // the JDK's XMLFormatter (exactly): no host code
                journal = MappedLogJournal.create(MappedLogJournal.journalOf(file), MappedLogJournal.XML_MAGIC,
                        xml.journalFormat() + "\n" + headText, charset);
                // the head goes where the handler writes next, unless it wrote it before Spool captured its records
                journal.headAt((boolean) writes.doneHeader.get(handler) ? -1 : files.position(stream));
                w = new JulJournalWriter(journal, new JulXmlJournalCodec(), headText.getBytes(charset), files, file, stream,
                        errors);
            } else {
                journal = MappedLogJournal.create(file, ((CompiledSimpleFormatter) format).format(), charset);
                w = new JulJournalWriter(journal, new JulJournalCodec(), null, files, file, stream, errors);
            }
            files.showJournal(stream, journal::pendingBytes);
            files.onClosed(stream, () -> w.closed(stream));
            return w;
        } catch (IOException e) {
            errors.accept("jul-journal", e.getMessage() + ": its records are captured without a journal (lost by a kill -9"
                    + " within the visibility bound, as before issue 33)");
            return null;
        } catch (RuntimeException e) {
            errors.accept("jul-journal", "cannot journal a FileHandler (" + e + "): captured without a journal");
            return null;
        }
    }

    /**
     * A caller, before the offer: journals {@code r} (its frame in {@link JulCapture#journalAt}, -1 when
     * not journaled). A full ring means the sink is behind: {@code makeRoom} (the caller's own drain of
     * what was captured, then {@link #awaitSink}, bounded by the sink's wait; false when the sink did not
     * finish in time, and then it is not tried again) frees the frames whose lines it wrote, as a
     * synchronous handler would have written them, and the record is journaled after all.
     */
    void append(JulCapture r, BooleanSupplier makeRoom) {
        long at = -1;
        RuntimeException refused = null;
        try {
            at = store(r);
            if (at == MappedLogJournal.FULL) {
                at = room.afterFull(() -> store(r), makeRoom, journal, RingRoom.ATTEMPTS);
            }
        } catch (RuntimeException e) {
            refused = e; // a value the codec cannot store exactly (an XML record's custom default zone): without the journal
        }
        r.journalAt = at < 0 ? -1 : at;
        if (at < 0) { // counted each time (the agent's errors), named once per reason
            notJournaled.incrementAndGet();
            errors.accept(refused != null ? "jul-journal-refused" : "jul-journal-full", "journal " + journal.path
                    + ": a record was captured without the journal" + (refused != null ? " (" + refused.getMessage() + ")"
                    : at == MappedLogJournal.FULL ? " (the ring stayed full after the caller wrote what was captured: the sink"
                    + " is stuck or behind)" : " (the journal stopped, or the record is over half the ring)")
                    + "; lost by a kill -9 within the visibility bound");
        }
    }

    private long store(JulCapture r) {
        ByteBuffer b = codec.encode(r);
        return journal.append(b.array(), b.position());
    }

    /**
     * A caller whose record found the ring full, under the handler's monitor after its own drain:
     * waits (bounded by the sink's wait) until the sink wrote every drained line, and trims; false when
     * the sink did not write them in time.
     */
    boolean awaitSink() {
        if (!files.awaitWritten(stream)) {
            return false;
        }
        settle();
        return true;
    }

    /** A caller whose journaled record was not queued (dropped): it is never replayed. */
    void notQueued(JulCapture r) {
        if (r.journalAt >= 0) {
            journal.done(r.journalAt);
        }
    }

    /** The drainer, before writing {@code r}'s line: records the file offset it starts at. */
    void beforeWrite(JulCapture r, FileHandler handler, JulHandlerWrite writes) {
        if (r.journalAt < 0) {
            return;
        }
        Object now = writes.underMeter(handler);
        if (now != stream && now != null) {
            follow(now);
        }
        streamClosed = false;
        before = now == stream ? files.position(stream) : -1;
        if (before >= 0) {
            long line = before;
            if (head != null && !(boolean) writes.doneHeader.get(handler)) {
                journal.headAt(before); // the file's first record: the handler writes the head first, then the line
                line += head.length;
            }
            journal.filePos(r.journalAt, line);
            inFlight = r.journalAt;
        }
    }

    /** The drainer, after writing {@code r}'s line: done once its bytes are in the file. */
    void afterWrite(JulCapture r) {
        if (r.journalAt < 0) {
            return;
        }
        inFlight = -1;
        long after = before < 0 || streamClosed ? -1 : files.position(stream);
        if (after <= before) {
            // nothing written into the journal's file (closed, failed, another stream); or the write rotated the file
            // (Java 17's publish after its write, 21's post-write hook): its bytes went into the old file before its close
            journal.done(r.journalAt);
        } else {
            unreached.add(r.journalAt, after);
        }
    }

    /**
     * The stream's close (a rotation's, under the handler's monitor; its bytes were drained into the
     * file first): every line written through it is marked done before the file is renamed, so a kill
     * after the rename replays none of them into the next file. A line the close could not write (the
     * sink failed; its bytes go where the sink's failure sends them) is done too: it is not this
     * file's any more, counted.
     */
    void closed(Object which) {
        if (which != stream || retired) {
            return; // an old stream's late close; or the handler's close after retire(), which decided the journal's fate
        }
        streamClosed = true;
        long end = files.position(stream); // after the formatter's tail, which the close wrote
        if (inFlight >= 0 && end > before) {
            journal.done(inFlight); // the line whose write rotates: its bytes are in this file, renamed next
        }
        settle();
        int left = unreached.abandon(journal);
        if (left > 0) {
            errors.accept("jul-journal-close", "journal " + journal.path + ": " + left + " lines written but not"
                    + " in the file when its stream closed (the sink failed): no longer journaled");
        }
        // a rotation renames the file next: what reached it says nothing of the new one (spool recover would take
        // a new, empty file for one emptied since the kill and put the queued lines beside it)
        journal.reached(0);
        if (head != null) {
            // the next file's head goes before the lines still queued: at the renamed file's start, or, killed before the
            // rename, after this file's tail (as plain JUL's next run appending to it would write one)
            journal.headAt(Math.max(0, end));
        }
    }

    /**
     * The drainer, at the first write after a rotation: the handler's new routed stream, when it writes the
     * same file (its generation 0); offsets count from its start. Anything else (not routed, another file)
     * and this journal stays with the old stream: the lines written elsewhere are done at once.
     */
    private void follow(Object now) {
        if (!file.equals(files.file(now)) || files.position(now) < 0 || files.reached(now) < 0) {
            return;
        }
        closed(stream); // the old stream's lines are its file's (closed() ran at its close; again in case it did not)
        stream = now;
        journal.reached(Math.max(0, files.reached(now))); // the new file's: the old one's says nothing of it (spool recover)
        files.onClosed(now, () -> closed(now));
        files.showJournal(now, journal::pendingBytes);
    }

    /** The drainer: marks done every written record whose bytes reached the file, and trims. */
    void settle() {
        unreached.settle(journal, files.reached(stream));
    }

    /** The handler's close (after the last drain): once the sink wrote everything, the journal goes. */
    void retire() {
        retired = true;
        settle();
        if (files.drain(stream)) {
            settle();
        }
        if (unreached.isEmpty() && journal.empty()) {
            try {
                journal.delete();
                return;
            } catch (IOException e) {
                errors.accept("jul-journal", "journal " + journal.path + " not removed (" + e + "): the next start replays"
                        + " nothing from it (its records are in the file)");
            }
        }
        journal.abandon(); // the next start of routing for the file replays what is left, once
    }

    long pendingBytes() {
        return journal.pendingBytes();
    }
}
