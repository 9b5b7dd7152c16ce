/**
 * The shared in-memory write-behind buffer: one entry per real path, flushed with atomic replaces.
 *
 * <h2>Memory-ordering conventions (once for the package)</h2>
 * <ul>
 *   <li>Every field of an {@code Entry} is guarded by the entry's own monitor
 *       ({@code synchronized (entry)}). Whoever reads or writes an entry's content, stamp, dirty
 *       flag or failure holds that monitor; a flush writes the file while holding it, so a file's
 *       content on disk and the entry's baseline never disagree for an observer holding the
 *       monitor.</li>
 *   <li>The path-to-entry map is a {@link java.util.concurrent.ConcurrentHashMap}: a lookup is
 *       lock-free and publishes a fully constructed entry. An entry removed from the map is first
 *       marked {@code removed} under its monitor; a thread that found it before the removal sees
 *       the flag once it holds the monitor and looks up again.</li>
 *   <li>Write-through goes through an entry too (a transient one, dropped after the call when no
 *       scope is open), so buffered and write-through access to one file are serialised by the
 *       same monitor and a write-through can never slip between a load and a buffered write.</li>
 *   <li>Settings are volatile fields read on every decision; a setter takes effect for the next
 *       decision. Counters are {@link java.util.concurrent.atomic.LongAdder}s or atomics;
 *       {@link dev.spool.buffer.BufferMetrics} is a snapshot of them, not an atomic cut.</li>
 *   <li>Lock order: the flush lock, then one entry monitor at a time (a flush's helper threads
 *       each take one entry monitor at a time while the flushing thread holds the flush lock). A
 *       thread holding an entry monitor never takes the flush lock and never waits for a flush:
 *       writers only wake the flusher, and the one wait a writer can enter (at the memory bound,
 *       {@code Backpressure}) is entered after its monitor is released, is bounded, and is never
 *       entered by a flushing thread. Listeners are called with no entry monitor held, so they may
 *       call back into the buffer.</li>
 *   <li>Hot-path counters (reads served, writes absorbed) are plain fields of the entry, written
 *       under its monitor; {@code EntryTable.metrics()} sums them under each monitor, and an entry
 *       leaving the buffer adds its counts to the buffer-wide {@code LongAdder}s.</li>
 * </ul>
 */
package dev.spool.buffer;
