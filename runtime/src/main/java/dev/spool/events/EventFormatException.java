package dev.spool.events;

/**
 * Bytes that are not a valid Spool encoding, with the file offset where known ({@code -1} if not).
 * The only exception {@link EventCodec#decode} throws for bad input.
 */
public final class EventFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The file offset of the bad bytes, or -1. */
    private final long offset;

    /**
     * @param message what is wrong
     * @param offset the file offset of the bad bytes, or -1 if not known
     */
    public EventFormatException(String message, long offset) {
        super(offset >= 0 ? message + " at offset " + offset : message);
        this.offset = offset;
    }

    /** @return the file offset of the bad bytes, or -1 if not known */
    public long offset() {
        return offset;
    }
}
