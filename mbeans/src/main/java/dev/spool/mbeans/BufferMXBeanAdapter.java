package dev.spool.mbeans;

import dev.spool.buffer.FlushException;
import dev.spool.buffer.SharedBuffer;

/**
 * {@link BufferMXBean} over a {@link SharedBuffer}. Setters validate (the buffer's own checks
 * throw {@link IllegalArgumentException}); a failed {@link #flush()} is reported to the JMX
 * client as an {@link IllegalStateException} carrying the message only, so a JConsole without
 * Spool's classes can show it.
 */
final class BufferMXBeanAdapter implements BufferMXBean {
    private final SharedBuffer buffer;

    BufferMXBeanAdapter(SharedBuffer buffer) {
        this.buffer = buffer;
    }

    @Override public boolean isEnabled() { return buffer.isEnabled(); }
    @Override public void setEnabled(boolean enabled) { buffer.setEnabled(enabled); }
    @Override public int getCapacity() { return buffer.getCapacity(); }
    @Override public void setCapacity(int capacity) { buffer.setCapacity(capacity); }
    @Override public long getCapacityBytes() { return buffer.getCapacityBytes(); }
    @Override public void setCapacityBytes(long bytes) { buffer.setCapacityBytes(bytes); }
    @Override public long getFlushIntervalMillis() { return buffer.getFlushIntervalMillis(); }
    @Override public void setFlushIntervalMillis(long millis) { buffer.setFlushIntervalMillis(millis); }
    @Override public boolean isFsync() { return buffer.isFsync(); }
    @Override public void setFsync(boolean fsync) { buffer.setFsync(fsync); }
    @Override public int getFlushThreads() { return buffer.getFlushThreads(); }
    @Override public void setFlushThreads(int threads) { buffer.setFlushThreads(threads); }
    @Override public boolean isExclusive() { return buffer.isExclusive(); }
    @Override public String getOthersCheck() { return buffer.isExclusive() ? "flush" : "call"; }
    @Override public boolean isCreateAtFlush() { return buffer.isCreateAtFlush(); }
    @Override public long getBackpressureWaits() { return buffer.metrics().backpressureWaits(); }
    @Override public long getBackpressureMillis() { return buffer.metrics().backpressureMillis(); }
    @Override public int getEntries() { return buffer.metrics().entries(); }
    @Override public int getDirtyEntries() { return buffer.metrics().dirtyEntries(); }
    @Override public long getEstimatedBytes() { return buffer.metrics().estimatedBytes(); }
    @Override public long getFlushes() { return buffer.metrics().flushes(); }
    @Override public long getFilesWritten() { return buffer.metrics().filesWritten(); }
    @Override public long getWritesAbsorbed() { return buffer.metrics().writesAbsorbed(); }
    @Override public long getReadsServed() { return buffer.metrics().readsServed(); }
    @Override public long getConflicts() { return buffer.metrics().conflicts(); }
    @Override public long getHostFileOpFailures() { return buffer.hostFiles().failures(); }
    @Override public long getStaleTempFilesRemoved() { return buffer.staleTempFilesRemoved(); }
    @Override public long getLastFlushMillis() { return buffer.metrics().lastFlushMillis(); }
    @Override public String getLastError() { return buffer.metrics().lastError(); }
    @Override public java.util.Map<String, Long> getEncodedAtCall() { return buffer.encodedAtCallByReason(); }

    @Override
    public int flush() {
        try {
            return buffer.flush();
        } catch (FlushException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }
}
