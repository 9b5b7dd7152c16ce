package dev.spool.buffer;

import dev.spool.internal.Internal;
/**
 * A change to a live tree, run under the file entry's monitor by
 * {@link SharedBuffer#liveWrite}. It reports how much the file's encoded size grew (negative when
 * it shrank), as well as it can estimate, through {@code growth}; the buffer's byte estimate and
 * its {@code capacityBytes} trigger are built on these reports.
 *
 * @param <T> the change's result
 */
@Internal
@FunctionalInterface
public interface LiveChange<T> {
    T apply(Object root, Growth growth);

    /** Receives size reports while a change runs. Only valid during {@link #apply}. */
    interface Growth {
        void grew(long bytes);
    }
}
