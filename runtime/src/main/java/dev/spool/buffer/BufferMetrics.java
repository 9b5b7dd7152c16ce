package dev.spool.buffer;

/**
 * Point-in-time counters of a {@link SharedBuffer}, named after the attributes of the
 * {@code dev.spool:type=Buffer} MBean. Each value is read separately: the record is a snapshot of
 * each counter, not an atomic cut across them.
 *
 * @param entries         files currently held (live and snapshot, clean and dirty)
 * @param dirtyEntries    files whose buffered content is not yet on disk
 * @param estimatedBytes  estimated bytes of unwritten content (see docs/ARCHITECTURE.md "The buffer")
 * @param flushes         flush passes run (timed, capacity wake-up, explicit, scope close, shutdown)
 * @param filesWritten    files written by flushes (conflict files not included)
 * @param writesAbsorbed  writes taken into memory instead of going to disk
 * @param readsServed     reads answered from memory
 * @param conflicts       flushes of a file that had been changed on disk by someone else
 * @param lastFlushMillis duration of the last flush, in milliseconds
 * @param lastError       the last write error ("path: message"), or an empty string
 * @param backpressureWaits  writes that waited for the background flush at the memory bound
 *                           ({@code capacityBytes})
 * @param backpressureMillis total milliseconds those writes waited
 */
public record BufferMetrics(int entries, int dirtyEntries, long estimatedBytes, long flushes,
                            long filesWritten, long writesAbsorbed, long readsServed, long conflicts,
                            long lastFlushMillis, String lastError, long backpressureWaits,
                            long backpressureMillis) {
}
