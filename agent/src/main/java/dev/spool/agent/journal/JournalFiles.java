package dev.spool.agent.journal;

import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * What a log journal ({@link MappedLogJournal}) needs to know of the routed stream its lines go
 * through (under a JUL {@code FileHandler}'s byte meter, under a Logback appender's own stream),
 * answered by the agent's routing (which owns that stream). Every method takes that stream object and answers "unknown" (null, -1,
 * false) for anything else. Thread-safe.
 */
public interface JournalFiles {

    /** The file the stream writes (absolute), or null when it is not a routed file stream. */
    Path file(Object stream);

    /** The file offset just after the last byte written through the stream, or -1 when unknown. */
    long position(Object stream);

    /** The file offset up to which the stream's bytes are in the file (the kernel's), or -1 when unknown. */
    long reached(Object stream);

    /** Waits (bounded by the sink) until every byte written through the stream is in the file; false when not. */
    boolean drain(Object stream);

    /**
     * Waits (bounded by the sink) until every byte written through the stream is in the file,
     * leaving the stream on its path whatever happens (a journal making room, issue 33): false when
     * not, the sink's error counted.
     */
    boolean awaitWritten(Object stream);

    /**
     * Runs {@code settle} on the thread that closes the stream, once its bytes are in the file and
     * before its owner goes on (a Logback roll renames the file next): a kill after the rename must
     * not find written lines still pending, replayed into the next file.
     */
    default void onClosed(Object stream, Runnable settle) {
    }

    /**
     * Gives the stream's bytes the host writes itself to {@code writes} ({@link HostWrites}); null stops
     * it. At most one per stream: the journal of its file.
     */
    default void onHostWrites(Object stream, HostWrites writes) {
    }

    /** Shows {@code pendingBytes} as the {@code JournalPendingBytes} of the stream's log's Sink bean. */
    void showJournal(Object stream, LongSupplier pendingBytes);
}
