package dev.spool.buffer;

import dev.spool.internal.recovery.RecoveryFolder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The process-wide {@link SharedBuffer} ({@link SharedBuffer#global()}): created at the first call
 * with {@link BufferSettings#defaults()}, and closed at JVM exit by a shutdown hook
 * ({@code spool-buffer-shutdown}) that saves whatever still cannot be written to the recovery
 * folder.
 *
 * <p><b>Threading.</b> Any thread. The first call creates the buffer and registers the hook under
 * the class-wide lock of {@code SharedBuffer.class}; later calls are one volatile read. At most
 * one global buffer is ever created per class loader.
 */
final class GlobalBuffer {
    private static volatile SharedBuffer global;

    private GlobalBuffer() {
    }

    /** {@link SharedBuffer#global()}. */
    static SharedBuffer get() {
        SharedBuffer g = global;
        if (g != null) return g;
        synchronized (SharedBuffer.class) {
            if (global == null) {
                SharedBuffer created = SharedBuffer.create(BufferSettings.defaults());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> shutdown(created), "spool-buffer-shutdown"));
                global = created;
            }
            return global;
        }
    }

    /**
     * The JVM is exiting: flush; whatever still cannot be written goes to the recovery folder
     * (one stderr line names it), so the data is never lost with the process.
     */
    private static void shutdown(SharedBuffer buffer) {
        try {
            buffer.close();
        } catch (FlushException e) {
            System.err.println("[spool] buffer flush at shutdown failed: " + e.getMessage());
            List<RecoveryFolder.Item> items = new ArrayList<>();
            for (FlushException.Failure f : e.failures()) {
                if (f.unsavedContent() != null) {
                    items.add(new RecoveryFolder.Item(f.file(), "unsaved buffered content of",
                            ByteBuffer.wrap(f.unsavedContent())));
                }
            }
            if (!items.isEmpty()) RecoveryFolder.saveAll(items, "buffered file(s)");
        } catch (RuntimeException e) {
            System.err.println("[spool] buffer flush at shutdown failed: " + e.getMessage());
        }
    }
}
