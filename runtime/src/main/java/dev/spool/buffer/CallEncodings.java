package dev.spool.buffer;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes whose content a caller (the agent's Jackson hook) encoded on its own thread at the call
 * instead of handing the buffer a capture to encode at the flush, counted by the reason the capture
 * was not proven exact (a printer, escapes, a serializer that changed its generator...). Shown on the
 * Buffer MBean as {@code EncodedAtCall}.
 *
 * <p>Thread-safe: a concurrent map of adders; a reason is a short constant string, so the map stays small.
 */
final class CallEncodings {
    private final ConcurrentHashMap<String, LongAdder> byReason = new ConcurrentHashMap<>();

    void count(String reason) {
        byReason.computeIfAbsent(reason == null ? "unknown" : reason, r -> new LongAdder()).increment();
    }

    /** Counts since start by reason, sorted by reason. */
    Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        byReason.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }
}
