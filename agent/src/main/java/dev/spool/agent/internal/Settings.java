package dev.spool.agent.internal;

import dev.spool.buffer.BufferSettings;
import dev.spool.internal.config.SpoolConfig;
import dev.spool.sink.SinkPolicy;
import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.util.Locale;

/**
 * The configuration mapped onto the runtime's settings. A value the configuration accepted but a
 * runtime builder rejects (a range the builder checks) is reported once and the runtime's defaults
 * are used for that group, so the host always starts.
 */
final class Settings {

    final BufferSettings buffer;
    final SinkSettings sink;
    final PathFilter filter;

    private Settings(BufferSettings buffer, SinkSettings sink, PathFilter filter) {
        this.buffer = buffer;
        this.sink = sink;
        this.filter = filter;
    }

    static Settings from(SpoolConfig config, AgentControl control) {
        BufferSettings buffer;
        try {
            buffer = BufferSettings.builder()
                    .capacity(config.bufferCapacity())
                    .capacityBytes(config.bufferCapacityBytes())
                    .flushIntervalMillis(config.bufferFlushIntervalMillis())
                    .fsync(config.bufferFsync())
                    .flushThreads(config.bufferFlushThreads())
                    .exclusive(config.bufferExclusive())
                    .createAtFlush(config.bufferCreateAtFlush())
                    .build();
        } catch (IllegalArgumentException e) {
            control.error("settings-buffer", "buffer settings rejected (" + e.getMessage() + "): buffer defaults used");
            buffer = BufferSettings.builder().build();
        }
        SinkSettings sink;
        try {
            sink = SinkSettings.builder()
                    .type(SinkType.valueOf(config.sinkType().toUpperCase(Locale.ROOT)))
                    .bufferBytes(config.sinkBufferBytes())
                    .buffers(config.sinkBuffers())
                    .directThreshold(config.sinkDirectThreshold())
                    .recordMax(config.sinkRecordMax())
                    .policy(SinkPolicy.valueOf(config.sinkPolicy().toUpperCase(Locale.ROOT)))
                    .maxBytesPerSecond(config.sinkMaxBytesPerSecond())
                    .waitMillis(config.sinkWaitMillis())
                    .journal(config.sinkJournal())
                    .build();
        } catch (IllegalArgumentException e) {
            control.error("settings-sink", "sink settings rejected (" + e.getMessage() + "): sink defaults used");
            sink = SinkSettings.builder().build();
        }
        PathFilter filter;
        try {
            filter = new PathFilter(config.bufferInclude(), config.bufferExclude());
        } catch (IllegalArgumentException e) {
            control.error("settings-globs", "spool.buffer.include/exclude: bad glob (" + e.getMessage()
                    + "): Jackson writes are not buffered");
            filter = new PathFilter(java.util.List.of(), java.util.List.of());
        }
        return new Settings(buffer, sink, filter);
    }
}
