package dev.spool.events;

import com.fasterxml.jackson.databind.JsonNode;

/** One event read back: its value, where it starts, when and by which thread it was emitted. */
public final class EventRecord {
    private final long offset;
    private final long timestampMillis;
    private final long threadId;
    private final int parts;
    private final JsonNode value;

    EventRecord(long offset, long timestampMillis, long threadId, int parts, JsonNode value) {
        this.offset = offset;
        this.timestampMillis = timestampMillis;
        this.threadId = threadId;
        this.parts = parts;
        this.value = value;
    }

    /** @return the byte offset of the record's (first) frame */
    public long offset() { return offset; }

    /** @return when the event was emitted, in milliseconds since the epoch */
    public long timestampMillis() { return timestampMillis; }

    /** @return {@link Thread#getId()} of the emitting thread */
    public long threadId() { return threadId; }

    /** @return 1, or the number of parts a split record was joined from */
    public int parts() { return parts; }

    /** @return the event as JSON */
    public JsonNode value() { return value; }

    @Override
    public String toString() {
        return "EventRecord{offset=" + offset + ", thread=" + threadId + ", parts=" + parts + ", " + value + '}';
    }
}
