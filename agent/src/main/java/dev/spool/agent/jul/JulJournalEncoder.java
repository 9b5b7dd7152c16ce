package dev.spool.agent.jul;

import java.nio.ByteBuffer;

/**
 * A journaled format's capture as a journal frame's payload (issue 33): {@code SimpleFormatter}'s
 * ({@link JulJournalCodec}), {@code XMLFormatter}'s ({@link JulXmlJournalCodec}). Runs on the caller's
 * thread; implementations are thread-safe and run no host code.
 */
interface JulJournalEncoder {
    /**
     * The payload of {@code r}: the buffer's array up to its position (the caller's scratch, valid until its
     * next call); throws when the record cannot be journaled exactly (it then goes without the journal).
     */
    ByteBuffer encode(JulCapture r);
}
