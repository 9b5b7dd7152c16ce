package dev.spool.sink;

import java.util.Objects;

/** {@link SinkMetrics} over a {@link ByteSink}'s counters. */
final class ByteSinkMetrics implements SinkMetrics {
    private final ByteSink sink;

    ByteSinkMetrics(ByteSink sink) {
        this.sink = sink;
    }

    @Override public String path() { return sink.name; }
    @Override public long eventsWritten() { return sink.written.totalEvents(); }
    @Override public long bytesWritten() { return sink.written.totalBytes(); }
    @Override public double eventsPerSecond() { return sink.written.eventsPerSecond(System.nanoTime()); }
    @Override public double bytesPerSecond() { return sink.written.bytesPerSecond(System.nanoTime()); }
    @Override public long dropped() { return sink.dropped.sum(); }
    @Override public long directWrites() { return sink.directWrites.sum(); }
    @Override public long splitRecords() { return sink.splitRecords.sum(); }
    @Override public long pendingBytes() { return sink.pendingBytes(); }
    @Override public long journalPendingBytes() { return sink.journalPendingBytes(); }
    @Override public long recoveredAtOpen() { return sink.recoveredFrames; }
    @Override public long errors() { return sink.errors.get(); }
    @Override public String lastError() { return sink.lastError; }
    @Override public int bufferBytes() { return sink.bufferBytes; }

    @Override
    public void setBufferBytes(int bufferBytes) {
        sink.bufferBytes = SinkSettings.checkBufferBytes(bufferBytes);
    }

    @Override public SinkPolicy policy() { return sink.policy; }

    @Override
    public void setPolicy(SinkPolicy policy) {
        sink.policy = Objects.requireNonNull(policy, "spool.sink.policy");
    }

    @Override public long maxBytesPerSecond() { return sink.maxBytesPerSecond; }

    @Override
    public void setMaxBytesPerSecond(long maxBytesPerSecond) {
        sink.maxBytesPerSecond = SinkSettings.checkMaxBytesPerSecond(maxBytesPerSecond);
    }

    @Override
    public void flush() {
        sink.flush(sink.waitMillis);
    }

    @Override
    public void resetStatistics() {
        sink.written.reset(System.nanoTime());
        sink.dropped.reset();
        sink.directWrites.reset();
        sink.splitRecords.reset();
        sink.errors.set(0);
        sink.lastError = null;
    }

    @Override
    public String toString() {
        return "SinkMetrics{" + path() + ", events=" + eventsWritten() + ", bytes=" + bytesWritten()
                + ", dropped=" + dropped() + ", direct=" + directWrites() + ", split=" + splitRecords()
                + ", pending=" + pendingBytes() + ", errors=" + errors() + '}';
    }
}
