package dev.spool.mbeans;

import dev.spool.sink.SinkMetrics;
import dev.spool.sink.SinkPolicy;
import java.util.Locale;

/**
 * {@link SinkMXBean} over a sink's {@link SinkMetrics}. The policy travels as lower-case text
 * (an open type); an unknown policy or a negative value is an {@link IllegalArgumentException}
 * and changes nothing.
 */
final class SinkMXBeanAdapter implements SinkMXBean {
    private final SinkMetrics sink;

    SinkMXBeanAdapter(SinkMetrics sink) {
        this.sink = sink;
    }

    @Override public String getPath() { return sink.path(); }
    @Override public long getEventsWritten() { return sink.eventsWritten(); }
    @Override public long getBytesWritten() { return sink.bytesWritten(); }
    @Override public double getEventsPerSecond() { return sink.eventsPerSecond(); }
    @Override public double getBytesPerSecond() { return sink.bytesPerSecond(); }
    @Override public long getDropped() { return sink.dropped(); }
    @Override public long getDirectWrites() { return sink.directWrites(); }
    @Override public long getSplitRecords() { return sink.splitRecords(); }
    @Override public long getPendingBytes() { return sink.pendingBytes(); }
    @Override public long getJournalPendingBytes() { return sink.journalPendingBytes(); }
    @Override public long getRecoveredAtOpen() { return sink.recoveredAtOpen(); }
    @Override public long getErrors() { return sink.errors(); }

    @Override
    public String getLastError() {
        String e = sink.lastError();
        return e == null ? "" : e;
    }

    @Override public int getBufferBytes() { return sink.bufferBytes(); }
    @Override public void setBufferBytes(int bytes) { sink.setBufferBytes(bytes); }

    @Override
    public String getPolicy() {
        return sink.policy().name().toLowerCase(Locale.ROOT);
    }

    @Override
    public void setPolicy(String policy) {
        if (policy == null) {
            throw new IllegalArgumentException("policy must be one of block, drop, sync; got null");
        }
        SinkPolicy p;
        try {
            p = SinkPolicy.valueOf(policy.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("policy must be one of block, drop, sync; got '" + policy + "'");
        }
        sink.setPolicy(p);
    }

    @Override public long getMaxBytesPerSecond() { return sink.maxBytesPerSecond(); }

    @Override
    public void setMaxBytesPerSecond(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("MaxBytesPerSecond must be 0 (no limit) or more; got " + bytesPerSecond);
        }
        sink.setMaxBytesPerSecond(bytesPerSecond);
    }

    @Override
    public long flush() {
        long before = sink.bytesWritten();
        sink.flush();
        return Math.max(0, sink.bytesWritten() - before);
    }

    @Override
    public void resetStatistics() {
        sink.resetStatistics();
    }
}
