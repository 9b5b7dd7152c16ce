package dev.spool.buffer;

import dev.spool.internal.Internal;
import java.nio.file.Path;

/**
 * One collection's way into a {@link SharedBuffer}'s entry for one file: the file's real path and
 * a memo of the entry last found for it, so a read or change skips the buffer's map lookup.
 *
 * <p><b>Threading.</b> Any number of threads share a slot (every view of one opened file does).
 * The memo is a volatile field (written only when the map gives a new entry, so the write's fence
 * is rare; the read is a plain load on x86): a thread that reads an entry from it also sees that
 * entry's construction, even before the thread that made it ever took its monitor. A thread sees
 * null, an older entry or the current one, and the buffer only trusts it under the entry's monitor
 * and only while the entry is not {@code removed}. That keeps the buffer's guarantees: an entry leaves the map only with
 * {@code removed} set under its monitor and at most one entry per path is ever in the map, so an
 * entry that is not removed is the file's one live entry; a removed one sends the caller to the
 * map (and the memo is replaced). The memo never keeps a removed entry's tree alive for long: it
 * is replaced at the next call.
 *
 * <pre>{@code
 * LiveSlot slot = buffer.liveSlot(RealPaths.of(file));     // once per opened file
 * Object v = buffer.liveRead(slot, JsonKind.MAP, "key", (root, k) -> ((Map<?, ?>) root).get(k));
 * }</pre>
 *
 * <p><b>Internal.</b> Used by {@code SyncedMap} and {@code SyncedList}, not meant for applications.
 */
@Internal
public final class LiveSlot {
    final SharedBuffer buffer;
    final Path real;
    /** The entry found last for {@link #real}, or null; trusted only under its monitor while not removed. */
    volatile Entry entry;

    LiveSlot(SharedBuffer buffer, Path real) {
        this.buffer = buffer;
        this.real = real;
    }

    /** @return the file's real path this slot is bound to */
    public Path real() {
        return real;
    }
}
