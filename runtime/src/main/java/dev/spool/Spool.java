package dev.spool;

import dev.spool.buffer.BufferScope;
import dev.spool.buffer.FlushException;
import dev.spool.buffer.SharedBuffer;

/**
 * Spool's entry points for applications that use its API directly.
 *
 * <pre>{@code
 * Map<String, Object> state = SyncedMap.open(Path.of("state.json"));
 * try (var scope = Spool.buffered()) {
 *     for (int i = 0; i < 1000; i++) state.put("k" + i, i);   // memory only
 * }                                                            // one write, here
 * }</pre>
 */
public final class Spool {
    private Spool() {}

    /**
     * Opens a buffering scope on the global buffer: until the outermost open scope closes, every
     * {@code SyncedMap}/{@code SyncedList} bound to the same file shares one live object and writes
     * do no I/O. Scopes nest (a process-wide counter).
     * @return the scope; close it (try-with-resources) to end it
     */
    public static BufferScope buffered() {
        return SharedBuffer.global().openScope();
    }

    /**
     * Writes every dirty file of the global buffer now.
     * @return the number of files written
     * @throws FlushException listing every file that could not be written
     */
    public static int flush() throws FlushException {
        return SharedBuffer.global().flush();
    }
}
